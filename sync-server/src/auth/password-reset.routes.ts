import type { FastifyInstance } from 'fastify';
import { passwordResetMessages } from '@platform/schema/auth/auth.messages';
import {
  forgotPasswordInputSchema,
  resetPasswordInputSchema,
} from '@platform/schema/auth/auth.zod';
import { mayMailPasswordReset } from './password-reset.limits.ts';
import { requestPasswordReset, resetPassword } from './password-reset.service.ts';

export async function passwordResetRoutes(app: FastifyInstance) {
  // The same answer whether or not the address has an account (no enumeration), and whether
  // or not that address's emails are used up; only too many requests from one place get a 429.
  app.post('/api/auth/forgot-password', async (request) => {
    const { email } = forgotPasswordInputSchema.parse(request.body);
    if (await mayMailPasswordReset(app.db, email, request.ip))
      await requestPasswordReset(app.db, app.mailer, app.config.publicUrl, email);
    return { ok: true, message: passwordResetMessages.sent };
  });

  app.post('/api/auth/reset-password', async (request) => {
    const { token, password } = resetPasswordInputSchema.parse(request.body);
    await resetPassword(app.db, token, password);
    return { ok: true, message: passwordResetMessages.done };
  });
}
