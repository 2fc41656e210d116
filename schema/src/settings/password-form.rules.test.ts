import { describe, expect, it } from 'vitest';
import { signupMessages } from '../auth/auth.messages.ts';
import { settingsMessages } from './settings.messages.ts';
import { changePasswordFormSchema } from './password-form.rules.ts';

describe('the settings password form', () => {
  const issues = (value: object) =>
    changePasswordFormSchema
      .safeParse(value)
      .error?.issues.map((issue) => [issue.path.join('.'), issue.message]);

  it('uses the signup password messages (spec §5)', () => {
    expect(issues({ currentPassword: '', newPassword: 'short', confirmPassword: 'short' })).toEqual(
      [
        ['currentPassword', settingsMessages.currentPasswordRequired],
        ['newPassword', signupMessages.passwordTooShort],
      ],
    );
    expect(
      issues({ currentPassword: 'old', newPassword: 'long-enough', confirmPassword: 'other' }),
    ).toEqual([['confirmPassword', signupMessages.passwordsDoNotMatch]]);
    expect(
      issues({
        currentPassword: 'old',
        newPassword: 'long-enough',
        confirmPassword: 'long-enough',
      }),
    ).toBeUndefined();
  });
});
