import { useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  formFromEntry,
  timeEntryFormSchema,
  timesFromForm,
  type TimeEntryFormValues,
} from '@platform/schema/time-tracking/time-entry-form.zod';
import { FormNotice } from '../../../components/form-notice.tsx';
import { TextField } from '../../../components/form-fields.tsx';
import { Modal } from '../../../components/modal.tsx';
import type { ChangeOutcome, EntryTarget } from '../hooks/use-entry-changes.ts';

type Props = {
  /** The entry being edited or created; the dialog is open while there is one. */
  target: EntryTarget;
  /** For a new entry: where the form starts (wall-clock values in the organisation's zone). */
  blank: TimeEntryFormValues;
  personName: string;
  timeZone: string;
  onSave: (
    target: EntryTarget,
    times: NonNullable<ReturnType<typeof timesFromForm>>,
  ) => Promise<ChangeOutcome>;
  onClose: () => void;
};

/**
 * Add or correct one time entry: start, end (empty while still running) and breaks, in the
 * organisation's time zone. The entry rules of schema/ check it as it is typed; the server
 * checks it again, with the overlap rule, and its reason is shown here if it refuses.
 */
export function TimeEntryDialog({ target, blank, personName, timeZone, onSave, onClose }: Props) {
  const original = target.kind === 'edit' ? target.entry : undefined;
  const form = useForm<TimeEntryFormValues>({
    resolver: zodResolver(timeEntryFormSchema(timeZone, original)),
    mode: 'onTouched',
    defaultValues: original ? formFromEntry(original, timeZone) : blank,
  });
  const breaks = useFieldArray({ control: form.control, name: 'breaks' });
  const [refusal, setRefusal] = useState<string | null>(null);
  const { errors, isSubmitting } = form.formState;
  const breaksError = errors.breaks?.message ?? errors.breaks?.root?.message;

  const submit = form.handleSubmit(async (values) => {
    setRefusal(null);
    const times = timesFromForm(values, timeZone, original);
    if (!times) return;
    const outcome = await onSave(target, times);
    if (outcome === null) onClose();
    else setRefusal(outcome);
  });

  const title = target.kind === 'create' ? 'Add time entry' : 'Edit time entry';
  return (
    <Modal
      open
      onOpenChange={(open) => !open && !isSubmitting && onClose()}
      title={title}
      description={`${personName} · times in ${timeZone.replace(/_/g, ' ')}`}
    >
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <FormNotice notice={refusal ? { tone: 'error', text: refusal } : null} />
        <TextField
          label="Start"
          type="datetime-local"
          required
          error={errors.start?.message}
          {...form.register('start')}
        />
        <TextField
          label="End"
          type="datetime-local"
          hint="Leave empty while still clocked in."
          error={errors.end?.message}
          {...form.register('end')}
        />
        <fieldset className="entry-breaks">
          <legend>Breaks</legend>
          {breaksError && (
            <p className="field-error" role="alert">
              {breaksError}
            </p>
          )}
          {breaks.fields.length === 0 && <p className="clock-muted">No breaks.</p>}
          {breaks.fields.map((field, index) => (
            <div key={field.id} className="entry-break-row">
              <TextField
                label={`Break ${index + 1} start`}
                type="datetime-local"
                error={errors.breaks?.[index]?.start?.message}
                {...form.register(`breaks.${index}.start`)}
              />
              <TextField
                label={`Break ${index + 1} end`}
                type="datetime-local"
                error={errors.breaks?.[index]?.end?.message}
                {...form.register(`breaks.${index}.end`)}
              />
              <button
                type="button"
                className="button button-secondary button-small"
                onClick={() => breaks.remove(index)}
              >
                Remove break {index + 1}
              </button>
            </div>
          ))}
          <button
            type="button"
            className="button button-secondary button-small"
            onClick={() => {
              const start = form.getValues('start');
              breaks.append({ start, end: '' }, { shouldFocus: true });
            }}
          >
            Add break
          </button>
        </fieldset>
        <div className="button-row">
          <button
            type="submit"
            className="button"
            disabled={isSubmitting}
            aria-busy={isSubmitting ? true : undefined}
          >
            {isSubmitting ? 'Saving…' : 'Save'}
          </button>
          <button
            type="button"
            className="button button-secondary"
            disabled={isSubmitting}
            onClick={onClose}
          >
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
