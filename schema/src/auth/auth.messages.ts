// Texts of spec §5 and §8, to the letter. Tests assert them exactly.
export const loginMessages = {
  identifierRequired: 'Email or username is required',
  passwordRequired: 'Password is required',
  failureTitle: 'Could not log in',
  failureBody:
    "We couldn't log you in. Please check your email and password and try again, or reset your password.",
  tooManyAttempts: 'Too many log-in attempts. Please wait a few minutes and try again.',
  unexpected: 'Something went wrong on our side. Please try again in a moment.',
} as const;

/** Shown by every auth form when the request never reached the server. */
export const offlineMessage = 'You appear to be offline. Check your connection and try again.';

export const signupMessages = {
  passwordTooShort: 'Password must be at least 8 characters.',
  passwordsDoNotMatch: 'Passwords do not match.',
  invalidEmail: 'This is not a valid email.',
  firstNameRequired: 'First name is required.',
  lastNameRequired: 'Last name is required.',
  companyNameRequired: 'Company name is required.',
  termsRequired: 'You must agree to terms of service to create an account.',
  cookiesRequired: 'You must agree to allow cookies per our terms.',
  cookieConsentAlert: 'Cookie consent must be given before registering',
  invalidDetails: 'The signup details are invalid',
  unknownError: 'An unknown error occurred',
  unknownErrorBody: (supportEmail: string) =>
    `Something unexpected happened. Please try again, or contact support at ${supportEmail}.`,
  emailTaken: 'An account with this email already exists.',
  unknownOrganization: 'This organization does not exist.',
  childrenOnlyForCustomers: 'Only customer accounts can add children.',
  created: 'Created!',
} as const;

// spec §5 Child: no trailing full stops here, unlike signup.
export const childMessages = {
  invalidEmail: 'Invalid email address',
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  formInvalid: 'The form is invalid',
} as const;

export const passwordResetMessages = {
  sent: 'If an account exists for that address, we have emailed a link to reset your password.',
  invalidToken: 'This password reset link is invalid or has expired.',
  done: 'Your password has been changed. You can now log in.',
} as const;

export const googleMessages = {
  notConfigured: 'Google sign-in is not available on this server.',
  loadFailed: 'Google sign-in could not be loaded. Check your connection and try again.',
  invalidToken: 'We could not verify your Google sign-in. Please try again.',
} as const;

export const impersonationMessages = {
  refused: 'You are not allowed to switch to that account.',
  /** decision 0035: a session switched into an account never decides as its owner. */
  ownerOnly: 'Only the owner of this account can do this. Return to your own account first.',
} as const;
