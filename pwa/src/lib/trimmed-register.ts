import type { FocusEvent } from 'react';
import type { FieldPath, FieldValues, PathValue, UseFormReturn } from 'react-hook-form';

/**
 * spec §5 Signup: fields are trimmed on blur — the input shows the trimmed value. Call during
 * render: reading formState there subscribes to it, so a trimmed field re-validates only
 * after the first submit (errors never appear before it).
 */
export function trimmedRegister<T extends FieldValues, O>(form: UseFormReturn<T, unknown, O>) {
  const shouldValidate = form.formState.isSubmitted;
  return (name: FieldPath<T>) =>
    form.register(name, {
      onBlur: (event: FocusEvent<HTMLInputElement>) => {
        const trimmed = event.target.value.trim();
        if (trimmed === event.target.value) return;
        // A text field's value is a string; the generic path type cannot know that.
        form.setValue(name, trimmed as PathValue<T, FieldPath<T>>, {
          shouldValidate,
          shouldDirty: true,
        });
      },
    });
}
