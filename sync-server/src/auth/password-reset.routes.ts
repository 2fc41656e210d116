import type { FastifyInstance } from 'fastify';
import { passwordResetMessages } from '@platform/schema/auth/auth.messages';
import {
  forgotPasswordInputSchema,
  resetPasswordInputSchema,
} from '@platform/schema/auth/auth.zod';
import { queuePasswordReset, resetPassword } from './password-reset.service.ts';

export async function passwordResetRoutes(app: FastifyInstance) {
  // The same answer, after the same work, whether or not the address has an account.
  app.post('/api/auth/forgot-password', async (request) => {
    const { email } = forgotPasswordInputSchema.parse(request.body);
    await queuePasswordReset(app.jobs, email);
    return { ok: true, message: passwordResetMessages.sent };
  });

  app.post('/api/auth/reset-password', async (request) => {
    const { token, password } = resetPasswordInputSchema.parse(request.body);
    await resetPassword(app.db, token, password);
    return { ok: true, message: passwordResetMessages.done };
  });
}
