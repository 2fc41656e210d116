import type { FieldError } from '@platform/schema/auth/auth.zod';
import { familyMessages } from '@platform/schema/families/families.messages';
import type { z } from 'zod';
import { toFieldErrors } from '@platform/schema/auth/auth.zod';
import { ValidationFailed } from '../plugins/domain-errors.ts';

/** Every 400 of the families API answers `{ message: 'The form is invalid', errors }` (spec §8). */
export class FamilyFormInvalid extends ValidationFailed {
  constructor(readonly errors: FieldError[]) {
    super(familyMessages.formInvalid, errors);
  }
  override toBody() {
    return { message: familyMessages.formInvalid, errors: this.errors };
  }
}

/** Parses a request body with a families schema; its issues become form errors. */
export function parseFamilyInput<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new FamilyFormInvalid(toFieldErrors(parsed.error));
  return parsed.data;
}
