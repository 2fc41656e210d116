import { useId, type ComponentProps, type ReactNode } from 'react';

type TextFieldProps = Omit<ComponentProps<'input'>, 'children'> & {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
};

/** A labelled input of the signed-in app, its hint and error tied to it (aria-describedby). */
export function TextField({ label, error, hint, id, className, ...input }: TextFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={['field', className].filter(Boolean).join(' ')}>
      <label htmlFor={inputId}>{label}</label>
      <input
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...input}
      />
      {hint && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

type SwitchFieldProps = Omit<ComponentProps<'input'>, 'type' | 'children' | 'role'> & {
  label: ReactNode;
  hint?: ReactNode;
};

/** An on/off setting: a native checkbox announced as a switch, its label beside it. */
export function SwitchField({ label, hint, id, ...input }: SwitchFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  return (
    <div className="switch-field">
      <input
        id={inputId}
        type="checkbox"
        role="switch"
        className="switch-field-input"
        aria-describedby={hintId}
        {...input}
      />
      <label htmlFor={inputId}>{label}</label>
      {hint && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
    </div>
  );
}
