import { useFieldArray, useWatch, type UseFormReturn } from 'react-hook-form';
import {
  emptyChildRow,
  type SignupFormInput,
  type SignupFormOutput,
} from '@platform/schema/auth/signup-form.rules';
import { trimmedRegister } from '../../../lib/trimmed-register.ts';
import { CheckboxField } from './checkbox-field.tsx';
import { TextField } from './text-field.tsx';
import { latestBirthday } from '@platform/schema/families/date-of-birth.rules';
import { familyMessages } from '@platform/schema/families/families.messages';

type SignupForm = UseFormReturn<SignupFormInput, unknown, SignupFormOutput>;

/** spec §5 Child, §6: only customers say they are a guardian and add children at signup. */
export function ChildrenFields({ form }: { form: SignupForm }) {
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'children' });
  const isGuardian = useWatch({ control: form.control, name: 'isGuardian' });
  return (
    <div className="auth-children">
      <CheckboxField
        label="I am a parent/guardian managing payments for children"
        {...form.register('isGuardian', {
          // At least one child row exists whenever the rows are shown.
          onChange: (event: { target: { checked: boolean } }) => {
            if (event.target.checked && fields.length === 0)
              append(emptyChildRow, { shouldFocus: false });
          },
        })}
      />
      {isGuardian && (
        <div className="auth-children__rows">
          {fields.map((field, index) => (
            <ChildRowFields
              key={field.id}
              form={form}
              index={index}
              onRemove={fields.length > 1 ? () => remove(index) : undefined}
            />
          ))}
          <button
            type="button"
            className="auth-button auth-button--secondary"
            onClick={() => append(emptyChildRow)}
          >
            Add another child
          </button>
        </div>
      )}
    </div>
  );
}

type ChildRowFieldsProps = { form: SignupForm; index: number; onRemove: (() => void) | undefined };

function ChildRowFields({ form, index, onRemove }: ChildRowFieldsProps) {
  const register = trimmedRegister(form);
  const errors = form.formState.errors.children?.[index];
  const number = index + 1;
  // The visible labels repeat per row; the hidden part keeps each accessible name unique.
  const which = <span className="auth-visually-hidden"> of child {number}</span>;
  return (
    <fieldset className="auth-child">
      <legend className="auth-child__legend">Child {number}</legend>
      <div className="auth-form__row">
        <TextField
          label={<>First name{which}</>}
          required
          error={errors?.firstName?.message}
          {...register(`children.${index}.firstName`)}
        />
        <TextField
          label={<>Last name{which}</>}
          required
          error={errors?.lastName?.message}
          {...register(`children.${index}.lastName`)}
        />
      </div>
      <TextField
        label={<>Email (optional){which}</>}
        type="email"
        autoCapitalize="none"
        spellCheck={false}
        hint={familyMessages.childEmailHint}
        error={errors?.email?.message}
        {...register(`children.${index}.email`)}
      />
      <TextField
        label={<>Date of birth (optional){which}</>}
        type="date"
        max={latestBirthday()}
        error={errors?.dateOfBirth?.message}
        {...form.register(`children.${index}.dateOfBirth`)}
      />
      {onRemove && (
        <button type="button" className="auth-button auth-button--link" onClick={onRemove}>
          Remove<span className="auth-visually-hidden"> child {number}</span>
        </button>
      )}
    </fieldset>
  );
}
