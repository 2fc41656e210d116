import { z } from 'zod';
import { signupMessages } from '../auth/auth.messages.ts';
import { changePasswordInputSchema } from './settings.zod.ts';

/** The settings password form: the wire fields plus the new password typed twice (spec §5). */
export const changePasswordFormSchema = changePasswordInputSchema
  .extend({ confirmPassword: z.string() })
  .refine((value) => value.newPassword === value.confirmPassword, {
    path: ['confirmPassword'],
    message: signupMessages.passwordsDoNotMatch,
  });
export type ChangePasswordForm = z.infer<typeof changePasswordFormSchema>;
export const emptyChangePasswordForm: ChangePasswordForm = {
  currentPassword: '',
  newPassword: '',
  confirmPassword: '',
};
