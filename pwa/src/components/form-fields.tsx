import { useId, type ComponentProps, type ReactNode } from 'react';

/** The class names of a text field's parts: the app's by default, the sign-in card's in auth. */
export type TextFieldClasses = {
  field: string;
  label?: string;
  input?: string;
  hint: string;
  error: string;
};

const appFieldClasses: TextFieldClasses = {
  field: 'field',
  hint: 'field-hint',
  error: 'field-error',
};

type TextFieldProps = Omit<ComponentProps<'input'>, 'children'> & {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
  classes?: TextFieldClasses;
};

/** A labelled input, its hint and error tied to it (aria-invalid, aria-describedby). */
export function TextField({
  label,
  error,
  hint,
  id,
  className,
  classes = appFieldClasses,
  ...input
}: TextFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={[classes.field, className].filter(Boolean).join(' ')}>
      <label className={classes.label} htmlFor={inputId}>
        {label}
      </label>
      <input
        id={inputId}
        className={classes.input}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...input}
      />
      {hint && (
        <p id={hintId} className={classes.hint}>
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className={classes.error}>
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
