import { loginMessages, signupMessages } from '@platform/schema/auth/auth.messages';
import type { googleLoginErrors } from '@platform/schema/auth/google.zod';
import type { FieldError } from '@platform/schema/auth/auth.zod';
import { TooManyRequests, Unauthenticated, ValidationFailed } from '../plugins/domain-errors.ts';

/** One answer for unknown user, wrong password and password-less account (no enumeration). */
export class LoginFailed extends Unauthenticated {
  constructor() {
    super(loginMessages.failureBody);
  }
}

export class TooManyLoginAttempts extends TooManyRequests {
  constructor() {
    super(loginMessages.tooManyAttempts);
  }
}

/** Signup answers its own shape (spec §7): `{success:false, errorType:'validation', errors}`. */
export class SignupInvalid extends ValidationFailed {
  constructor(readonly errors: FieldError[]) {
    super(signupMessages.invalidDetails, errors);
  }
  toBody() {
    return { success: false as const, errorType: 'validation' as const, errors: this.errors };
  }
}

/** Google sign-in failed; `code` goes on /auth/login?error=. */
export class GoogleSignInFailed extends Unauthenticated {
  constructor(
    readonly code: (typeof googleLoginErrors)[keyof typeof googleLoginErrors],
    reason: string,
  ) {
    super(reason);
  }
}
