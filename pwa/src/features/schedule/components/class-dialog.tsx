import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  classFormSchema,
  classInputOf,
  type ClassFormValues,
} from '@platform/schema/schedule/class-form.zod';
import { weekdayKeys } from '@platform/schema/schedule/recurrence';
import type { ClassSavedResponse } from '@platform/schema/schedule/schedule.zod';
import { FormNotice } from '../../../components/form-notice.tsx';
import { TextField } from '../../../components/form-fields.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useToast } from '../../../components/toast/toast-context.ts';
import { failureText } from '../../../lib/request-failure.ts';
import { createClass, updateSeries } from '../api/schedule.ts';

const weekdayNames = {
  MO: 'Mon',
  TU: 'Tue',
  WE: 'Wed',
  TH: 'Thu',
  FR: 'Fri',
  SA: 'Sat',
  SU: 'Sun',
} as const;

export type Choice = { id: string; name: string };

/**
 * New class or event, or the whole series of one: what it is, who leads it, how many fit, what
 * pays for a place, and when — once, or weekly on chosen days until a day or N times. Checked
 * here with schema/'s messages and again by the server; the class times it makes reach the
 * calendar by replication.
 */
export function ClassDialog({
  classId,
  initial,
  timeZone,
  coaches,
  products,
  groups,
  onClose,
}: {
  /** Set: the series being edited. */
  classId: string | null;
  initial: ClassFormValues;
  timeZone: string;
  coaches: readonly Choice[];
  products: readonly Choice[];
  groups: readonly Choice[];
  onClose: () => void;
}) {
  const toast = useToast();
  const form = useForm<ClassFormValues>({
    resolver: zodResolver(classFormSchema),
    mode: 'onTouched',
    defaultValues: initial,
  });
  const [refusal, setRefusal] = useState<string | null>(null);
  const { errors, isSubmitting } = form.formState;
  const repeat = useWatch({ control: form.control, name: 'repeat' });
  const endKind = useWatch({ control: form.control, name: 'endKind' });
  const submit = form.handleSubmit(async (values) => {
    setRefusal(null);
    try {
      const input = classInputOf(values);
      const saved: ClassSavedResponse = classId
        ? await updateSeries(classId, input)
        : await createClass(input);
      toast.success(
        classId
          ? `${saved.class.title} saved: ${saved.occurrences} upcoming times.`
          : `${saved.class.title} added: ${saved.occurrences} ${saved.occurrences === 1 ? 'time' : 'times'}.`,
      );
      onClose();
    } catch (error) {
      setRefusal(failureText(error, 'Saving the class'));
    }
  });
  return (
    <Modal
      open
      onOpenChange={(open) => !open && !isSubmitting && onClose()}
      title={classId ? 'Edit the whole series' : 'New class or event'}
      description={`Times in ${timeZone.replace(/_/g, ' ')}`}
    >
      <form className="form class-form" noValidate onSubmit={(event) => void submit(event)}>
        <FormNotice notice={refusal ? { tone: 'error', text: refusal } : null} />
        <fieldset className="choice-row">
          <legend>Kind</legend>
          <label>
            <input type="radio" value="class" {...form.register('kind')} /> Class
          </label>
          <label>
            <input type="radio" value="event" {...form.register('kind')} /> Event
          </label>
        </fieldset>
        <TextField
          label="Title"
          required
          error={errors.title?.message}
          {...form.register('title')}
        />
        <div className="field">
          <label htmlFor="class-description">Description</label>
          <textarea id="class-description" rows={2} {...form.register('description')} />
          {errors.description && <p className="field-error">{errors.description.message}</p>}
        </div>
        <TextField
          label="Location"
          error={errors.location?.message}
          {...form.register('location')}
        />
        <div className="field">
          <label htmlFor="class-coach">Coach</label>
          <select id="class-coach" {...form.register('coachUserId')}>
            <option value="">No coach named</option>
            {coaches.map((coach) => (
              <option key={coach.id} value={coach.id}>
                {coach.name}
              </option>
            ))}
          </select>
        </div>
        <div className="form-row">
          <TextField
            label="Capacity"
            inputMode="numeric"
            required
            error={errors.capacity?.message}
            {...form.register('capacity')}
          />
          <TextField
            label="Price (optional)"
            inputMode="decimal"
            hint="Paid at the desk when no membership or punch card includes it."
            error={errors.price?.message}
            {...form.register('price')}
          />
        </div>
        {products.length > 0 && (
          <fieldset className="choice-list">
            <legend>Included in these memberships</legend>
            {products.map((product) => (
              <label key={product.id}>
                <input
                  type="checkbox"
                  value={product.id}
                  {...form.register('entitlingProductIds')}
                />{' '}
                {product.name}
              </label>
            ))}
          </fieldset>
        )}
        {groups.length > 0 && (
          <fieldset className="choice-list">
            <legend>Takes a credit of these punch cards</legend>
            {groups.map((group) => (
              <label key={group.id}>
                <input type="checkbox" value={group.id} {...form.register('punchCardGroupIds')} />{' '}
                {group.name}
              </label>
            ))}
          </fieldset>
        )}
        <div className="form-row">
          <TextField
            label={repeat === 'weekly' ? 'First day' : 'Day'}
            type="date"
            required
            error={errors.date?.message}
            {...form.register('date')}
          />
          <TextField
            label="Start"
            type="time"
            required
            error={errors.time?.message}
            {...form.register('time')}
          />
          <TextField
            label="Minutes"
            inputMode="numeric"
            required
            error={errors.durationMinutes?.message}
            {...form.register('durationMinutes')}
          />
        </div>
        <fieldset className="choice-row">
          <legend>Repeat</legend>
          <label>
            <input type="radio" value="none" {...form.register('repeat')} /> Once
          </label>
          <label>
            <input type="radio" value="weekly" {...form.register('repeat')} /> Weekly
          </label>
        </fieldset>
        {repeat === 'weekly' && (
          <>
            <fieldset
              className="choice-row"
              aria-describedby={errors.weekdays ? 'weekdays-error' : undefined}
            >
              <legend>On</legend>
              {weekdayKeys.map((day) => (
                <label key={day}>
                  <input type="checkbox" value={day} {...form.register('weekdays')} />{' '}
                  {weekdayNames[day]}
                </label>
              ))}
              {errors.weekdays && (
                <p id="weekdays-error" className="field-error">
                  {errors.weekdays.message}
                </p>
              )}
            </fieldset>
            <TextField
              label="Every how many weeks"
              inputMode="numeric"
              error={errors.intervalWeeks?.message}
              {...form.register('intervalWeeks')}
            />
            <fieldset className="choice-row">
              <legend>Ends</legend>
              <label>
                <input type="radio" value="count" {...form.register('endKind')} /> After a number of
                times
              </label>
              <label>
                <input type="radio" value="until" {...form.register('endKind')} /> On a day
              </label>
            </fieldset>
            {endKind === 'count' ? (
              <TextField
                label="Number of times"
                inputMode="numeric"
                error={errors.count?.message}
                {...form.register('count')}
              />
            ) : (
              <TextField
                label="Last day"
                type="date"
                error={errors.until?.message}
                {...form.register('until')}
              />
            )}
          </>
        )}
        <div className="button-row">
          <button
            type="submit"
            className="button"
            disabled={isSubmitting}
            aria-busy={isSubmitting || undefined}
          >
            {isSubmitting ? 'Saving…' : classId ? 'Save the series' : 'Add to the calendar'}
          </button>
          <button
            type="button"
            className="button button-secondary"
            onClick={onClose}
            disabled={isSubmitting}
          >
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
