import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { createAccountRequestSchema } from '@platform/schema/auth/create-account.zod';
import {
  familyActionNeedsSession,
  isFamilyAccountAction,
  runFamilyAccountAction,
} from '../families/routes.ts';
import { familyFormInvalid } from '../families/families.errors.ts';
import { requireSession } from '../plugins/session.ts';
import { SignupInvalid } from './auth.errors.ts';
import { signUp } from './signup.service.ts';

/** The action an unvalidated body names (hooks run before the schema). */
const actionOf = (body: unknown) =>
  body && typeof body === 'object' && 'action' in body ? body.action : undefined;

/**
 * Signup answers validation in its own shape (spec §7), with fields named inside `signupDto`;
 * the family actions in theirs (spec §8); any other body gets the general 400.
 */
function invalidCreateAccount(error: z.ZodError, body: unknown) {
  const action = actionOf(body);
  if (action === 'signup')
    return new SignupInvalid(
      error.issues.map((issue) => ({ field: issue.path.slice(1).join('.'), message: issue.message })),
    );
  return isFamilyAccountAction(action) ? familyFormInvalid(error) : error;
}

/** spec §7 POST /api/auth/create-account: signup here, the family actions in families/. */
export async function signupRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/auth/create-account',
    {
      schema: { body: createAccountRequestSchema },
      // Family actions other than validate-child need a session, checked before the payload.
      preValidation: async (request) => {
        if (familyActionNeedsSession(actionOf(request.body))) await requireSession(request);
      },
      config: { invalidInput: (error, request) => invalidCreateAccount(error, request.body) },
    },
    async (request, reply) => {
      const input = request.body;
      if (input.action !== 'signup') return runFamilyAccountAction(app, request, input);
      const deps = { db: app.db, mailer: app.mailer, publicUrl: app.config.publicUrl };
      const outcome = await signUp(deps, input.signupDto);
      await app.sessions.start(reply, { ...outcome, userAgent: request.headers['user-agent'] });
      return { success: true, userId: outcome.userId, redirectTo: outcome.redirectTo };
    },
  );
}
