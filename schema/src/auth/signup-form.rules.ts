import { ORG_NAME_MAX } from '../app/constants.ts';
import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from '../app/constants.ts';
import { childEntrySchema, signupDtoSchema, type SignupDto } from './auth.zod.ts';
import { signupMessages } from './auth.messages.ts';

export type AccountType = 'customer' | 'organization';

/** A child row as the form holds it: every field a string, so inputs stay controlled. */
const childRowSchema = z.object({
  firstName: z.string().trim(),
  lastName: z.string().trim(),
  email: z.string().trim(),
  /** 'YYYY-MM-DD' from a date input, '' when left empty (issue 14). */
  dateOfBirth: z.string(),
});
export type ChildRow = z.input<typeof childRowSchema>;
export const emptyChildRow: ChildRow = { firstName: '', lastName: '', email: '', dateOfBirth: '' };

/**
 * The details step of the signup form (spec §5 Signup): the payload rules plus what only the
 * form asks — password confirmation, terms, cookies unless consent was already given, and the
 * child rows when the person says they are a guardian (spec §5 Child, customers only).
 * The company name is asked in its own step; see companyInfoSchema.
 */
export function signupFormSchema(options: { cookieConsentGiven: boolean }) {
  return signupDtoSchema
    .pick({ email: true, password: true, firstName: true, lastName: true })
    .extend({
      confirmPassword: z.string(),
      terms: z.boolean().refine((v) => v, signupMessages.termsRequired),
      cookies: z.boolean(),
      isGuardian: z.boolean(),
      children: z.array(childRowSchema),
    })
    .superRefine((value, ctx) => {
      // zod 4 runs this even when fields above failed, so an empty submit shows every message.
      if (value.password !== value.confirmPassword) {
        ctx.addIssue({
          code: 'custom',
          path: ['confirmPassword'],
          message: signupMessages.passwordsDoNotMatch,
        });
      }
      if (!options.cookieConsentGiven && !value.cookies) {
        ctx.addIssue({
          code: 'custom',
          path: ['cookies'],
          message: signupMessages.cookiesRequired,
        });
      }
      if (!value.isGuardian) return;
      value.children.forEach((child, index) => {
        const parsed = childEntrySchema.safeParse(child);
        if (parsed.success) return;
        for (const issue of parsed.error.issues) {
          ctx.addIssue({
            code: 'custom',
            path: ['children', index, ...issue.path],
            message: issue.message,
          });
        }
      });
    });
}
export type SignupFormInput = z.input<ReturnType<typeof signupFormSchema>>;
export type SignupFormOutput = z.output<ReturnType<typeof signupFormSchema>>;

export const emptySignupForm = (email = ''): SignupFormInput => ({
  email,
  password: '',
  confirmPassword: '',
  firstName: '',
  lastName: '',
  terms: false,
  cookies: false,
  isGuardian: false,
  children: [],
});

/** Step 1 of the organisation flow ('Company info'). */
export const companyInfoSchema = z.object({
  companyName: z
    .string()
    .trim()
    .min(1, signupMessages.companyNameRequired)
    .max(ORG_NAME_MAX, `Company name must be at most ${ORG_NAME_MAX} characters.`),
});
export type CompanyInfo = z.infer<typeof companyInfoSchema>;

/** The payload of POST /api/auth/create-account from the validated form (spec §3 Signup payload). */
export function toSignupDto(
  form: SignupFormOutput,
  context: {
    accountType: AccountType;
    companyName?: string;
    orgId?: string;
    redirectTo?: string;
    invitation?: string;
  },
): SignupDto {
  const children =
    context.accountType === 'customer' && form.isGuardian
      ? form.children.map(({ firstName, lastName, email, dateOfBirth }) => ({
          firstName,
          lastName,
          ...(email ? { email } : {}),
          ...(dateOfBirth ? { dateOfBirth } : {}),
        }))
      : undefined;
  return {
    email: form.email,
    password: form.password,
    firstName: form.firstName,
    lastName: form.lastName,
    ...(context.accountType === 'organization' && context.companyName
      ? { companyName: context.companyName }
      : {}),
    ...(children ? { children } : {}),
    ...(context.orgId ? { orgId: context.orgId } : {}),
    ...(context.redirectTo ? { redirectTo: context.redirectTo } : {}),
    ...(context.invitation ? { invitation: context.invitation } : {}),
  };
}

/** The reset-password form: a new password typed twice. */
export const resetPasswordFormSchema = z
  .object({
    password: z.string().min(PASSWORD_MIN_LENGTH, signupMessages.passwordTooShort),
    confirmPassword: z.string(),
  })
  .refine((value) => value.password === value.confirmPassword, {
    path: ['confirmPassword'],
    message: signupMessages.passwordsDoNotMatch,
  });
export type ResetPasswordForm = z.infer<typeof resetPasswordFormSchema>;
