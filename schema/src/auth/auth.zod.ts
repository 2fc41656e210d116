import { z } from 'zod';
import { ORG_NAME_MAX, PASSWORD_MIN_LENGTH, PERSON_NAME_MAX } from '../app/constants.ts';
import { dateOfBirthSchema } from '../families/date-of-birth.rules.ts';
import { childMessages, loginMessages, signupMessages } from './auth.messages.ts';

export const profileTypeSchema = z.enum(['use-customer', 'use-latest', 'use-org']);
export type ProfileType = z.infer<typeof profileTypeSchema>;

/** spec §3 Login request, §7 POST /auth/login (JSON). */
export const loginInputSchema = z.object({
  identifier: z.string().trim().min(1, loginMessages.identifierRequired),
  password: z.string().min(1, loginMessages.passwordRequired),
  profileType: profileTypeSchema.optional().default('use-latest'),
  profileOrgId: z.uuid().nullish(),
  redirectTo: z.string().nullish(),
});
export type LoginInput = z.input<typeof loginInputSchema>;

/** What the login form asks; the rest of the request comes from the query string. */
export const loginFormSchema = loginInputSchema.pick({ identifier: true, password: true });
export type LoginForm = z.infer<typeof loginFormSchema>;

/** spec §7 form variant of POST /auth/login, used by switch accounts. */
export const impersonateFormSchema = z.object({
  impersonate: z.uuid(),
  redirectTo: z.string().optional(),
  profileType: profileTypeSchema.optional(),
  profileOrgId: z.union([z.uuid(), z.literal('')]).optional(),
  identifier: z.string().optional(),
  password: z.string().optional(),
});

const trimmed = z.string().trim();
const nameTooLong = `Names must be at most ${PERSON_NAME_MAX} characters.`;
const requiredName = (message: string) => trimmed.min(1, message).max(PERSON_NAME_MAX, nameTooLong);

/** spec §3 Child entry; §5 Child rules. */
export const childEntrySchema = z.object({
  id: z.string().optional(),
  email: z.union([z.email(childMessages.invalidEmail), z.literal('')]).optional(),
  firstName: requiredName(childMessages.firstNameRequired),
  lastName: requiredName(childMessages.lastNameRequired),
  /** Issue 14: optional; '' when the form's field is left empty. */
  dateOfBirth: z.union([dateOfBirthSchema, z.literal('')]).optional(),
});
export type ChildEntry = z.infer<typeof childEntrySchema>;

/** spec §3 Signup payload. A companyName makes it an organisation signup. */
export const signupDtoSchema = z.object({
  email: trimmed.pipe(z.email(signupMessages.invalidEmail)),
  password: z.string().min(PASSWORD_MIN_LENGTH, signupMessages.passwordTooShort),
  firstName: requiredName(signupMessages.firstNameRequired),
  lastName: requiredName(signupMessages.lastNameRequired),
  middleName: trimmed.max(PERSON_NAME_MAX, nameTooLong).optional(),
  companyName: trimmed
    .min(1, signupMessages.companyNameRequired)
    .max(ORG_NAME_MAX, `Company name must be at most ${ORG_NAME_MAX} characters.`)
    .optional(),
  companyLocation: trimmed.optional(),
  children: z.array(childEntrySchema).optional(),
  /** The organisation a customer signs up with (branded app, invitations). */
  orgId: z.uuid().optional(),
  redirectTo: z.string().optional(),
  /** The token of a CRM invitation link (decision 0012): claims the invited account. */
  invitation: z.string().min(1).max(200).optional(),
});
export type SignupDto = z.infer<typeof signupDtoSchema>;

/** spec §7 create-account: the family actions beside signup (issue 5 Families). */
export const fieldErrorSchema = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

/** Any 400 body listing field errors: the signup shape, or the general one of a bad request. */
export const fieldErrorsBodySchema = z.object({ errors: z.array(fieldErrorSchema) });

/** The `orgId` query parameter of the login and signup pages (a branded app's organisation). */
export const orgIdQuerySchema = z.uuid();

/** spec §7 signup: returns success, errorType validation, errors list. */
export const signupResultSchema = z.union([
  z.object({ success: z.literal(true), userId: z.uuid(), redirectTo: z.string() }),
  z.object({
    success: z.literal(false),
    errorType: z.literal('validation'),
    errors: z.array(fieldErrorSchema),
  }),
]);
export type SignupResult = z.infer<typeof signupResultSchema>;

export const forgotPasswordInputSchema = z.object({
  email: trimmed.pipe(z.email(signupMessages.invalidEmail)),
});
export const resetPasswordInputSchema = z.object({
  token: z.string().min(16).max(200),
  password: z.string().min(PASSWORD_MIN_LENGTH, signupMessages.passwordTooShort),
});

/** Turns zod issues into the `{field, message}` list the forms show. */
export function toFieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message }));
}

/** Both password answers say the same thing whether or not the account exists. */
export const passwordResultSchema = z.object({ ok: z.literal(true), message: z.string() });

/** GET /api/auth/config: what the login page needs to offer Google sign-in. */
export const authConfigSchema = z.object({ googleClientId: z.string().nullable() });
export type AuthConfig = z.infer<typeof authConfigSchema>;
