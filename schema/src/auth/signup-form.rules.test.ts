import { describe, expect, it } from 'vitest';
import { childMessages, signupMessages } from './auth.messages.ts';
import {
  emptySignupForm,
  resetPasswordFormSchema,
  signupFormSchema,
  toSignupDto,
  type SignupFormInput,
} from './signup-form.rules.ts';

const filled: SignupFormInput = {
  ...emptySignupForm(),
  email: ' ada@example.com ',
  password: 'long-enough',
  confirmPassword: 'long-enough',
  firstName: 'Ada ',
  lastName: 'Lovelace',
  terms: true,
  cookies: true,
};
const messagesOf = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries(
    (result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]),
  );

describe('signupFormSchema', () => {
  it('gives every spec §5 message for an empty form at once', () => {
    const result = signupFormSchema({ cookieConsentGiven: false }).safeParse(emptySignupForm());
    expect(messagesOf(result)).toEqual({
      email: signupMessages.invalidEmail,
      password: signupMessages.passwordTooShort,
      firstName: signupMessages.firstNameRequired,
      lastName: signupMessages.lastNameRequired,
      terms: signupMessages.termsRequired,
      cookies: signupMessages.cookiesRequired,
    });
  });

  it('asks for cookies only until consent is given, and checks the confirmation', () => {
    const schema = signupFormSchema({ cookieConsentGiven: true });
    expect(schema.safeParse({ ...filled, cookies: false }).success).toBe(true);
    expect(messagesOf(schema.safeParse({ ...filled, confirmPassword: 'other-one' }))).toEqual({
      confirmPassword: signupMessages.passwordsDoNotMatch,
    });
  });

  it('checks child rows only for a guardian', () => {
    const schema = signupFormSchema({ cookieConsentGiven: false });
    const children = [{ firstName: '', lastName: 'Kid', email: 'nope', dateOfBirth: '' }];
    expect(schema.safeParse({ ...filled, children }).success).toBe(true);
    expect(messagesOf(schema.safeParse({ ...filled, isGuardian: true, children }))).toEqual({
      'children.0.firstName': childMessages.firstNameRequired,
      'children.0.email': childMessages.invalidEmail,
    });
  });
});

describe('toSignupDto', () => {
  const schema = signupFormSchema({ cookieConsentGiven: false });
  const children = [{ firstName: ' Kit', lastName: 'Lovelace', email: '', dateOfBirth: '2019-06-01' }];

  it('sends a trimmed customer with children (no empty email) and the query context', () => {
    const form = schema.parse({ ...filled, isGuardian: true, children });
    const orgId = '6f1c1f43-3f7a-4d53-9d43-6a3f8b2f3b7e';
    expect(
      toSignupDto(form, {
        accountType: 'customer',
        companyName: 'Ignored',
        orgId,
        redirectTo: '/x',
      }),
    ).toEqual({
      email: 'ada@example.com',
      password: 'long-enough',
      firstName: 'Ada',
      lastName: 'Lovelace',
      children: [{ firstName: 'Kit', lastName: 'Lovelace', dateOfBirth: '2019-06-01' }],
      orgId,
      redirectTo: '/x',
    });
  });

  it('sends the company for an organisation, never children', () => {
    const form = schema.parse({ ...filled, isGuardian: true, children });
    const dto = toSignupDto(form, { accountType: 'organization', companyName: 'Peak Pilates' });
    expect(dto.companyName).toBe('Peak Pilates');
    expect(dto.children).toBeUndefined();
  });
});

describe('resetPasswordFormSchema', () => {
  it('needs 8 characters, typed twice', () => {
    expect(
      messagesOf(
        resetPasswordFormSchema.safeParse({ password: 'short', confirmPassword: 'other' }),
      ),
    ).toEqual({
      password: signupMessages.passwordTooShort,
      confirmPassword: signupMessages.passwordsDoNotMatch,
    });
  });
});
