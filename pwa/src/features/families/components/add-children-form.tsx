import { useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { emptyChildRow } from '@platform/schema/auth/signup-form.rules';
import type { FieldError } from '@platform/schema/auth/auth.zod';
import type { FamilyMember } from '@platform/schema/families/families.zod';
import { familyMessages } from '@platform/schema/families/families.messages';
import { SwitchField } from '../../../components/form-fields.tsx';
import { trimmedRegister } from '../../../lib/trimmed-register.ts';
import { createChildren } from '../api/create-children.ts';
import { validateChildren } from '../api/validate-children.ts';
import {
  childFieldPath,
  childrenFormSchema,
  describeChildError,
  emptyChildrenForm,
  toChildEntries,
  type ChildrenForm,
  type ChildrenFormOutput,
} from '../children-form.ts';
import { failureText, familyTexts } from '../family-texts.ts';
import { ChildRowFields } from './child-row-fields.tsx';
import { FieldErrorList } from './field-error-list.tsx';

type Step = 'idle' | 'checking' | 'creating' | 'created';
const submitLabels: Record<Step, string> = {
  idle: 'Create child accounts',
  checking: 'Checking…',
  creating: 'Creating…',
  created: 'Created!',
};
const createFailed = 'We could not create the child accounts. Please try again.';

type Props = {
  guardianId: string;
  offline: boolean;
  onCreated: (children: FamilyMember[]) => void;
};

/**
 * spec §5 Child, §7 validate-child then create-children, §8 'The form is invalid' with the
 * server's errors in red above the form. Nothing is sent until every row is valid.
 */
export function AddChildrenForm({ guardianId, offline, onCreated }: Props) {
  const form = useForm<ChildrenForm, unknown, ChildrenFormOutput>({
    resolver: zodResolver(childrenFormSchema),
    mode: 'onTouched',
    defaultValues: emptyChildrenForm(),
  });
  const rows = useFieldArray({ control: form.control, name: 'children' });
  const register = trimmedRegister(form);
  const [step, setStep] = useState<Step>('idle');
  const [failure, setFailure] = useState<{ message: string; details: string[] } | null>(null);

  const showServerErrors = (message: string, errors: FieldError[]) => {
    for (const error of errors) {
      const path = childFieldPath(error);
      if (path) form.setError(path, { message: error.message });
    }
    setFailure({ message, details: errors.map(describeChildError) });
  };

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    const children = toChildEntries(values);
    try {
      setStep('checking');
      const check = await validateChildren(children);
      if (!check.success) {
        showServerErrors(familyMessages.formInvalid, check.errors);
        setStep('idle');
        return;
      }
      setStep('creating');
      const outcome = await createChildren({
        guardianUserId: guardianId,
        signupDtos: children,
        skipResetPasswordMail: !values.sendPasswordEmail,
      });
      if (outcome.kind === 'invalid') {
        showServerErrors(outcome.message, outcome.errors);
        setStep('idle');
        return;
      }
      // Ready for the next child at once; the button says Created! until then.
      form.reset(emptyChildrenForm());
      setStep('created');
      onCreated(outcome.children);
    } catch (error) {
      setFailure({ message: failureText(error, createFailed), details: [] });
      setStep('idle');
    }
  });

  const busy = step === 'checking' || step === 'creating';
  return (
    <form
      className="form family-form"
      aria-labelledby="add-children-heading"
      noValidate
      onSubmit={(event) => void submit(event)}
    >
      <h3 id="add-children-heading" className="family-heading">
        Add child accounts
      </h3>
      {failure && <FieldErrorList title={failure.message} messages={failure.details} />}
      {rows.fields.map((field, index) => (
        <ChildRowFields
          key={field.id}
          onEdit={step === 'created' ? () => setStep('idle') : undefined}
          index={index}
          register={register}
          errors={form.formState.errors.children}
          onRemove={rows.fields.length > 1 ? () => rows.remove(index) : undefined}
        />
      ))}
      <div className="button-row">
        <button
          type="button"
          className="button button-secondary"
          disabled={busy}
          onClick={() => rows.append({ ...emptyChildRow })}
        >
          Add another child
        </button>
      </div>
      <SwitchField label={familyTexts.sendPasswordEmail} {...form.register('sendPasswordEmail')} />
      <div className="button-row">
        <button
          type="submit"
          className={`button${step === 'created' ? ' button-confirmed' : ''}`}
          disabled={busy || offline || step === 'created'}
          aria-busy={step === 'checking' || step === 'creating' ? true : undefined}
        >
          {submitLabels[step]}
        </button>
      </div>
    </form>
  );
}
