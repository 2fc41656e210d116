import { useId, type ComponentProps, type ReactNode } from 'react';

type CheckboxFieldProps = Omit<ComponentProps<'input'>, 'type' | 'children'> & {
  label: ReactNode;
  error?: string | undefined;
};

/** A native checkbox with its label beside it and its error tied to it. */
export function CheckboxField({ label, error, id, ...input }: CheckboxFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const errorId = error ? `${inputId}-error` : undefined;
  return (
    <div className="auth-check">
      <div className="auth-check__row">
        <input
          id={inputId}
          type="checkbox"
          className="auth-check__input"
          aria-invalid={error ? true : undefined}
          aria-describedby={errorId}
          {...input}
        />
        <label className="auth-check__label" htmlFor={inputId}>
          {label}
        </label>
      </div>
      {error && (
        <p id={errorId} className="auth-field__error">
          {error}
        </p>
      )}
    </div>
  );
}
