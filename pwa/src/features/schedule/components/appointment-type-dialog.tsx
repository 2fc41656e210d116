import { useId, useState } from 'react';
import { useController, useForm, type Control } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';

import { z } from 'zod';
import {
  appointmentTypeInputSchema,
  type AppointmentTypeDoc,
  type AppointmentTypeDraft,
  type AppointmentTypeInput,
} from '@platform/schema/schedule/appointments.zod';
import { parseMoneyInput } from '@platform/schema/payments/money';
import { FormNotice } from '../../../components/form-notice.tsx';
import { TextField } from '../../../components/form-fields.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useToast } from '../../../components/toast/toast-context.ts';

import { failureText } from '../../../lib/request-failure.ts';
import { createAppointmentType, updateAppointmentType } from '../api/appointments.ts';

import type { Choice } from './class-dialog.tsx';

const wholeNumber = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text) : Number.NaN);

// The fields carry the input's own names, so the input schema's issues — and its messages, the
// ones the server answers with — land on them; the form only turns text into numbers first.
const typeFormSchema = z
  .object({
    title: z.string(),
    description: z.string(),
    location: z.string(),
    durationMinutes: z.string(),
    bufferMinutes: z.string(),
    priceMinor: z.string(),
    staffUserIds: z.array(z.string()),
    entitlingProductIds: z.array(z.string()),
    punchCardGroupIds: z.array(z.string()),
  })
  .transform((form): AppointmentTypeDraft => ({
    ...form,
    durationMinutes: wholeNumber(form.durationMinutes),
    bufferMinutes: form.bufferMinutes.trim() === '' ? 0 : wholeNumber(form.bufferMinutes),
    priceMinor:
      form.priceMinor.trim() === '' ? null : (parseMoneyInput(form.priceMinor) ?? Number.NaN),
  }))
  .pipe(appointmentTypeInputSchema);
type TypeForm = z.input<typeof typeFormSchema>;

const moneyText = (minor: number) =>
  `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;

function formOf(type: AppointmentTypeDoc | null): TypeForm {
  return {
    title: type?.title ?? '',
    description: type?.description ?? '',
    location: type?.location ?? '',
    durationMinutes: String(type?.durationMinutes ?? 60),
    bufferMinutes: String(type?.bufferMinutes ?? 0),
    priceMinor: type?.priceMinor == null ? '' : moneyText(type.priceMinor),
    staffUserIds: [...(type?.staffUserIds ?? [])],
    entitlingProductIds: [...(type?.entitlingProductIds ?? [])],
    punchCardGroupIds: [...(type?.punchCardGroupIds ?? [])],
  };
}

/** Adding or changing an appointment type (the input schema's messages, to the letter). */
export function AppointmentTypeDialog({
  type,
  staff,
  staffLoading,
  products,
  groups,
  onClose,
}: {
  /** Set: the type being edited. */
  type: AppointmentTypeDoc | null;
  staff: readonly Choice[];
  staffLoading: boolean;
  products: readonly Choice[];
  groups: readonly Choice[];
  onClose: () => void;
}) {
  const toast = useToast();
  const form = useForm<TypeForm, unknown, AppointmentTypeInput>({
    resolver: zodResolver(typeFormSchema),
    // Not on blur: a message appearing as the focus leaves a field moves the Add button away
    // from under the pointer, and the click that left the field is lost.
    mode: 'onSubmit',
    defaultValues: formOf(type),
  });
  const [refusal, setRefusal] = useState<string | null>(null);
  const { errors, isSubmitting } = form.formState;
  // Someone no longer on the staff still shows, so they can be unticked.
  const staffChoices = [
    ...staff,
    ...(type?.staffUserIds ?? [])
      .filter((id) => !staff.some((s) => s.id === id))
      .map((id) => ({ id, name: 'Someone no longer on the staff' })),
  ];
  const submit = form.handleSubmit(async (input) => {
    setRefusal(null);
    try {
      const saved = type
        ? await updateAppointmentType(type.id, input)
        : await createAppointmentType(input);
      toast.success(type ? `${saved.title} saved.` : `${saved.title} added.`);
      onClose();
    } catch (error) {
      setRefusal(failureText(error, 'Saving the appointment type'));
    }
  });
  return (
    <Modal
      open
      onOpenChange={(open) => !open && !isSubmitting && onClose()}
      title={type ? `Edit ${type.title}` : 'New appointment type'}
    >
      <form
        className="form appointment-type-form"
        noValidate
        onSubmit={(event) => void submit(event)}
      >
        <FormNotice notice={refusal ? { tone: 'error', text: refusal } : null} />
        <TextField
          label="Title"
          required
          maxLength={120}
          error={errors.title?.message}
          {...form.register('title')}
        />
        <div className="field">
          <label htmlFor="appointment-description">Description</label>
          <textarea
            id="appointment-description"
            rows={2}
            maxLength={2000}
            {...form.register('description')}
          />
        </div>
        <TextField
          label="Location"
          maxLength={200}
          error={errors.location?.message}
          {...form.register('location')}
        />
        <div className="form-row">
          <TextField
            label="Duration (minutes)"
            inputMode="numeric"
            required
            error={errors.durationMinutes?.message}
            {...form.register('durationMinutes')}
          />
          <TextField
            label="Buffer (minutes)"
            inputMode="numeric"
            hint="Kept free before and after."
            error={errors.bufferMinutes?.message}
            {...form.register('bufferMinutes')}
          />
          <TextField
            label="Price (optional)"
            inputMode="decimal"
            hint="Leave empty for free."
            error={errors.priceMinor?.message}
            {...form.register('priceMinor')}
          />
        </div>
        {staffLoading ? (
          <p role="status">Loading the staff…</p>
        ) : (
          <ChoiceList
            control={form.control}
            name="staffUserIds"
            legend="Staff who give it"
            choices={staffChoices}
            error={errors.staffUserIds?.message}
          />
        )}
        {products.length > 0 && (
          <ChoiceList
            control={form.control}
            name="entitlingProductIds"
            legend="Included in these memberships"
            choices={products}
          />
        )}
        {groups.length > 0 && (
          <ChoiceList
            control={form.control}
            name="punchCardGroupIds"
            legend="Takes a credit of these punch cards"
            choices={groups}
          />
        )}
        <div className="button-row">
          <button
            type="submit"
            className="button"
            disabled={isSubmitting}
            aria-busy={isSubmitting || undefined}
          >
            {isSubmitting ? 'Saving…' : type ? 'Save the appointment type' : 'Add appointment type'}
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

/** Ticked ids as an array, however many boxes there are (one registered box would be a boolean). */
function ChoiceList({
  control,
  name,
  legend,
  choices,
  error,
}: {
  control: Control<TypeForm, unknown, AppointmentTypeInput>;
  name: 'staffUserIds' | 'entitlingProductIds' | 'punchCardGroupIds';
  legend: string;
  choices: readonly Choice[];
  error?: string | undefined;
}) {
  const { field } = useController({ control, name });
  const errorId = useId();
  const ticked = field.value ?? [];
  return (
    <fieldset className="choice-list" aria-describedby={error ? errorId : undefined}>
      <legend>{legend}</legend>
      {choices.map((choice) => (
        <label key={choice.id}>
          <input
            type="checkbox"
            checked={ticked.includes(choice.id)}
            onBlur={field.onBlur}
            onChange={(event) =>
              field.onChange(
                event.target.checked
                  ? [...ticked, choice.id]
                  : ticked.filter((id) => id !== choice.id),
              )
            }
          />{' '}
          {choice.name}
        </label>
      ))}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
