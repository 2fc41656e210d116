import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { timeEntryEditMessages } from '@platform/schema/time-tracking/time-tracking.messages';
import {
  exportRangeSchema,
  type ExportRange,
  type TimeTrackingPerson,
} from '@platform/schema/time-tracking/time-tracking.zod';
import { FormNotice } from '../../../components/form-notice.tsx';
import { TextField } from '../../../components/form-fields.tsx';
import { useToast } from '../../../components/toast/toast-context.ts';
import { NetworkError } from '../../../lib/api.ts';
import { downloadTimeEntriesCsv } from '../api/export-time-entries.ts';

type Props = {
  orgId: string;
  /** The days the form starts with (the week on screen). */
  initial: ExportRange;
  /** Managers choose everyone or one person; null: only one's own entries. */
  people: TimeTrackingPerson[] | null;
};

/** The payroll export: a CSV of the entries that start on the chosen days (the organisation's). */
export function ExportForm({ orgId, initial, people }: Props) {
  const toast = useToast();
  const form = useForm<ExportRange>({
    resolver: zodResolver(exportRangeSchema),
    defaultValues: initial,
  });
  const [personId, setPersonId] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (range) => {
    setFailure(null);
    try {
      await downloadTimeEntriesCsv({ orgId, ...range, ...(personId ? { userId: personId } : {}) });
    } catch (error) {
      toast.error(timeEntryEditMessages.exportFailed);
      setFailure(
        error instanceof NetworkError
          ? timeEntryEditMessages.offline
          : timeEntryEditMessages.exportFailed,
      );
    }
  });

  return (
    <section className="time-export" aria-labelledby="time-export-heading">
      <h2 id="time-export-heading">Export</h2>
      <p className="clock-muted">
        A CSV file for payroll: one row per entry that starts on these days, with break minutes and
        hours worked.
      </p>
      <form className="form export-form" noValidate onSubmit={(event) => void submit(event)}>
        <FormNotice notice={failure ? { tone: 'error', text: failure } : null} />
        <div className="export-fields">
          <TextField
            label="From"
            type="date"
            required
            error={errors.from?.message}
            {...form.register('from')}
          />
          <TextField
            label="To"
            type="date"
            required
            error={errors.to?.message}
            {...form.register('to')}
          />
          {people && (
            <div className="field">
              <label htmlFor="export-person">Whose entries</label>
              <select
                id="export-person"
                value={personId}
                onChange={(event) => setPersonId(event.target.value)}
              >
                <option value="">Everyone</option>
                {people.map((person) => (
                  <option key={person.id} value={person.id}>
                    {person.fullName}
                  </option>
                ))}
              </select>
            </div>
          )}
        </div>
        <div className="button-row">
          <button
            type="submit"
            className="button"
            disabled={isSubmitting}
            aria-busy={isSubmitting ? true : undefined}
          >
            {isSubmitting ? 'Exporting…' : 'Export CSV'}
          </button>
        </div>
      </form>
    </section>
  );
}
