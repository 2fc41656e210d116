import type { ComponentProps } from 'react';
import { TextField as Field, type TextFieldClasses } from '../../../components/form-fields.tsx';

const authFieldClasses: TextFieldClasses = {
  field: 'auth-field',
  label: 'auth-field__label',
  input: 'auth-field__input',
  hint: 'auth-field__hint',
  error: 'auth-field__error',
};

/** The shared text field in the sign-in card's look. */
export function TextField(props: Omit<ComponentProps<typeof Field>, 'classes'>) {
  return <Field {...props} classes={authFieldClasses} />;
}
