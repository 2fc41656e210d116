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

/** A route's refused input in the families' form shape (the route's `invalidInput`). */
export const familyFormInvalid = (error: z.ZodError) => new FamilyFormInvalid(toFieldErrors(error));
