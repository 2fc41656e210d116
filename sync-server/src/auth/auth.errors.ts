import { loginMessages, signupMessages } from '@platform/schema/auth/auth.messages';
import type { googleLoginErrors } from '@platform/schema/auth/google.zod';
import type { FieldError } from '@platform/schema/auth/auth.zod';
import { Unauthenticated, ValidationFailed } from '../plugins/domain-errors.ts';
import { RateLimited } from '../rate-limits/rate-limits.ts';

/** One answer for unknown user, wrong password and password-less account (no enumeration). */
export class LoginFailed extends Unauthenticated {
  constructor() {
    super(loginMessages.failureBody);
  }
}

/** The log-in page's own words, whichever sign-in limit refused (the wait is in Retry-After). */
export class TooManyLoginAttempts extends RateLimited {
  constructor(retryAfterMs: number) {
    super(retryAfterMs, loginMessages.tooManyAttempts);
  }
}

/** Signup answers its own shape (spec §7): `{success:false, errorType:'validation', errors}`. */
export class SignupInvalid extends ValidationFailed {
  constructor(readonly errors: FieldError[]) {
    super(signupMessages.invalidDetails, errors);
  }
  override toBody() {
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
