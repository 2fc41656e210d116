import { useId, type ComponentProps, type ReactNode } from 'react';

type TextFieldProps = Omit<ComponentProps<'input'>, 'children'> & {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
};

/** A labelled input whose error is tied to it (aria-invalid, aria-describedby). */
export function TextField({ label, error, hint, id, className, ...input }: TextFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={['auth-field', className].filter(Boolean).join(' ')}>
      <label className="auth-field__label" htmlFor={inputId}>
        {label}
      </label>
      <input
        id={inputId}
        className="auth-field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...input}
      />
      {hint && (
        <p id={hintId} className="auth-field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="auth-field__error">
          {error}
        </p>
      )}
    </div>
  );
}
