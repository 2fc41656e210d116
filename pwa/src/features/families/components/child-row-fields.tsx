import type { FieldErrors, UseFormRegisterReturn } from 'react-hook-form';
import { familyMessages } from '@platform/schema/families/families.messages';
import { latestBirthday } from '@platform/schema/families/date-of-birth.rules';
import { TextField } from '../../../components/form-fields.tsx';
import type { ChildFieldPath, ChildrenForm } from '../children-form.ts';

type Props = {
  index: number;
  register: (name: ChildFieldPath) => UseFormRegisterReturn;
  errors: FieldErrors<ChildrenForm>['children'];
  /** Absent while this is the only row (spec §5: at least one row remains). */
  onRemove: (() => void) | undefined;
  /** Typing in the row (after a creation: the next child). */
  onEdit?: (() => void) | undefined;
};

/** One child of the add-children form (spec §3 Child entry, §5 Child). */
export function ChildRowFields({ index, register, errors, onRemove, onEdit }: Props) {
  const rowErrors = errors?.[index];
  const number = index + 1;
  // The visible labels repeat per row; the hidden part keeps each accessible name unique.
  const which = <span className="sr-only"> of child {number}</span>;
  return (
    <fieldset className="family-child-row" onInput={onEdit}>
      <legend>Child {number}</legend>
      <div className="family-form-row">
        <TextField
          label={<>First name{which}</>}
          autoComplete="off"
          required
          error={rowErrors?.firstName?.message}
          {...register(`children.${index}.firstName`)}
        />
        <TextField
          label={<>Last name{which}</>}
          autoComplete="off"
          required
          error={rowErrors?.lastName?.message}
          {...register(`children.${index}.lastName`)}
        />
      </div>
      <TextField
        label={<>Email (optional){which}</>}
        type="email"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        hint={familyMessages.childEmailHint}
        error={rowErrors?.email?.message}
        {...register(`children.${index}.email`)}
      />
      <TextField
        label={<>Date of birth (optional){which}</>}
        type="date"
        max={latestBirthday()}
        error={rowErrors?.dateOfBirth?.message}
        {...register(`children.${index}.dateOfBirth`)}
      />
      {onRemove && (
        <button type="button" className="button-link" onClick={onRemove}>
          Remove<span className="sr-only"> child {number}</span>
        </button>
      )}
    </fieldset>
  );
}
