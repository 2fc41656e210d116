import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { passwordResetMessages } from '@platform/schema/auth/auth.messages';
import {
  forgotPasswordInputSchema,
  resetPasswordInputSchema,
} from '@platform/schema/auth/auth.zod';
import { mayMailPasswordReset } from './password-reset.limits.ts';
import { queuePasswordReset, resetPassword } from './password-reset.service.ts';

export async function passwordResetRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  // The same answer, after the same work, whether or not the address has an account (no
  // enumeration), and whether or not that address's emails are used up (decision 0020); only
  // too many requests from one place get a 429. The lookup and the email happen in a job.
  api.post(
    '/api/auth/forgot-password',
    { schema: { body: forgotPasswordInputSchema } },
    async (request) => {
      const { email } = request.body;
      if (await mayMailPasswordReset(app.db, email, request.ip))
        await queuePasswordReset(app.jobs, email);
      return { ok: true, message: passwordResetMessages.sent };
    },
  );

  api.post(
    '/api/auth/reset-password',
    { schema: { body: resetPasswordInputSchema } },
    async (request) => {
      const { token, password } = request.body;
      await resetPassword(app.db, token, password);
      return { ok: true, message: passwordResetMessages.done };
    },
  );
}
