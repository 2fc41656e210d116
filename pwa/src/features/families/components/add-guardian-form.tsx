import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import type { FamilyMember } from '@platform/schema/families/families.zod';
import { guardianSignupDtoSchema } from '@platform/schema/families/families.zod';
import { guardianMessages } from '@platform/schema/families/families.messages';
import { SwitchField, TextField } from '../../../components/form-fields.tsx';
import { trimmedRegister } from '../../../lib/trimmed-register.ts';
import { addGuardian } from '../api/add-guardian.ts';
import { failureText, familyTexts } from '../family-texts.ts';
import { FieldErrorList } from './field-error-list.tsx';

// spec §9: the invite email is on unless turned off; the wire flag says the opposite.
const addGuardianFormSchema = guardianSignupDtoSchema.extend({ sendPasswordEmail: z.boolean() });
type AddGuardianForm = z.input<typeof addGuardianFormSchema>;
const emptyForm: AddGuardianForm = {
  email: '',
  firstName: '',
  lastName: '',
  sendPasswordEmail: true,
};
const fieldNames = ['email', 'firstName', 'lastName'] as const;

type Props = { subjectId: string; offline: boolean; onAdded: (guardian: FamilyMember) => void };

/** spec §5 Guardian add: email, first and last name, and whether to email a password link. */
export function AddGuardianForm({ subjectId, offline, onAdded }: Props) {
  const form = useForm<AddGuardianForm, unknown, z.output<typeof addGuardianFormSchema>>({
    resolver: zodResolver(addGuardianFormSchema),
    mode: 'onTouched',
    defaultValues: emptyForm,
  });
  const register = trimmedRegister(form);
  const [failure, setFailure] = useState<{ message: string; details: string[] } | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ sendPasswordEmail, ...signupDto }) => {
    setFailure(null);
    setAdded(null);
    try {
      const outcome = await addGuardian({
        userId: subjectId,
        signupDto,
        skipResetPasswordMail: !sendPasswordEmail,
      });
      if (outcome.kind === 'added') {
        form.reset(emptyForm);
        setAdded(familyTexts.guardianAdded);
        onAdded(outcome.guardian);
        return;
      }
      // Errors about a field go beside it; the rest (e.g. 'own guardian') above the form.
      const unplaced: string[] = [];
      for (const error of outcome.errors) {
        const field = fieldNames.find((name) => error.field.split('.').at(-1) === name);
        if (field) form.setError(field, { message: error.message }, { shouldFocus: true });
        else unplaced.push(error.message);
      }
      if (unplaced.length > 0)
        setFailure({ message: guardianMessages.addFailed, details: unplaced });
    } catch (error) {
      setFailure({ message: failureText(error, guardianMessages.addFailed), details: [] });
    }
  });

  return (
    <form
      className="form family-form"
      aria-labelledby="add-guardian-heading"
      noValidate
      onSubmit={(event) => void submit(event)}
    >
      <h3 id="add-guardian-heading" className="family-heading">
        Add a parent/guardian
      </h3>
      {failure && <FieldErrorList title={failure.message} messages={failure.details} />}
      {added && (
        <p className="form-success" role="status">
          {added}
        </p>
      )}
      <TextField
        label="Email"
        type="email"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        required
        error={errors.email?.message}
        {...register('email')}
      />
      <div className="family-form-row">
        <TextField
          label="First name"
          autoComplete="off"
          required
          error={errors.firstName?.message}
          {...register('firstName')}
        />
        <TextField
          label="Last name"
          autoComplete="off"
          required
          error={errors.lastName?.message}
          {...register('lastName')}
        />
      </div>
      <SwitchField label={familyTexts.sendPasswordEmail} {...form.register('sendPasswordEmail')} />
      <div className="button-row">
        <button
          type="submit"
          className="button"
          disabled={isSubmitting || offline}
          aria-busy={isSubmitting ? true : undefined}
        >
          {isSubmitting ? 'Adding…' : 'Add parent/guardian'}
        </button>
      </div>
    </form>
  );
}
