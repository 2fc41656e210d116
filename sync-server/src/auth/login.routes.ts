import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { impersonateFormSchema, loginInputSchema } from '@platform/schema/auth/auth.zod';
import { safeRedirectPath } from '@platform/schema/auth/redirect.rules';
import { requireSession } from '../plugins/session.ts';
import { isFormPost } from './form-post.ts';
import { logIn } from './login.service.ts';
import { switchAccount } from './switch-account.service.ts';

/** spec §7 POST /auth/login: JSON log-in answers the next path as text; the form switches accounts. */
export async function loginRoutes(app: FastifyInstance) {
  app.post('/auth/login', async (request, reply) =>
    isFormPost(request) ? switchAccountHandler(request, reply) : logInHandler(request, reply),
  );

  async function logInHandler(request: FastifyRequest, reply: FastifyReply) {
    const input = loginInputSchema.parse(request.body);
    const signedIn = await logIn(app.db, { ...input, ip: request.ip });
    await app.sessions.start(reply, { ...signedIn, userAgent: request.headers['user-agent'] });
    return reply
      .type('text/plain; charset=utf-8')
      .send(safeRedirectPath(input.redirectTo, '/dashboard'));
  }

  async function switchAccountHandler(request: FastifyRequest, reply: FastifyReply) {
    const session = await requireSession(request);
    const form = impersonateFormSchema.parse(request.body);
    const next = await switchAccount(app.db, session, form);
    await app.sessions.start(reply, { ...next, userAgent: request.headers['user-agent'] });
    return reply.redirect(safeRedirectPath(form.redirectTo, '/dashboard'), 303);
  }
}
