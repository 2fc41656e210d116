import type { FastifyInstance } from 'fastify';
import {
  createAccountRequestSchema,
  signupDtoSchema,
  toFieldErrors,
} from '@platform/schema/auth/auth.zod';
import { runFamilyAccountAction } from '../families/routes.ts';
import { SignupInvalid } from './auth.errors.ts';
import { signUp } from './signup.service.ts';

/** spec §7 POST /api/auth/create-account: signup here, the family actions in families/. */
export async function signupRoutes(app: FastifyInstance) {
  app.post('/api/auth/create-account', async (request, reply) => {
    const input = createAccountRequestSchema.parse(request.body);
    if (input.action !== 'signup') return runFamilyAccountAction(app, request, reply, input.action);
    const { signupDto } = input;
    try {
      const parsed = signupDtoSchema.safeParse(signupDto);
      if (!parsed.success) throw new SignupInvalid(toFieldErrors(parsed.error));
      const deps = { db: app.db, mailer: app.mailer, publicUrl: app.config.publicUrl };
      const outcome = await signUp(deps, parsed.data);
      await app.sessions.start(reply, { ...outcome, userAgent: request.headers['user-agent'] });
      return { success: true, userId: outcome.userId, redirectTo: outcome.redirectTo };
    } catch (error) {
      // Signup answers validation in its own shape (spec §7), not the general error body.
      if (error instanceof SignupInvalid) return reply.code(400).send(error.toBody());
      throw error;
    }
  });
}
