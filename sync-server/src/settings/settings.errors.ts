import type { FieldError } from '@platform/schema/auth/auth.zod';
import { ValidationFailed } from '../plugins/domain-errors.ts';

/** A 400 the settings forms show beside their fields: `{ message, errors: [{field, message}] }`. */
export class SettingsInvalid extends ValidationFailed {
  constructor(readonly errors: FieldError[]) {
    super(errors[0]?.message ?? 'The settings are invalid.', errors);
  }
  override toBody() {
    return { message: this.message, errors: this.errors };
  }
}
