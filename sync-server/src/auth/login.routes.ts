import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { impersonateFormSchema, loginInputSchema } from '@platform/schema/auth/auth.zod';
import { safeRedirectPath } from '@platform/schema/auth/redirect.rules';
import { requireSession } from '../plugins/session.ts';
import { isFormPost } from './form-post.ts';
import { logIn } from './login.service.ts';
import { switchAccount } from './switch-account.service.ts';

/** spec §7 POST /auth/login: JSON log-in answers the next path as text; the form switches accounts. */
export async function loginRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/auth/login',
    {
      schema: {
        body: {
          content: {
            'application/json': { schema: loginInputSchema },
            'application/x-www-form-urlencoded': { schema: impersonateFormSchema },
          },
        },
      },
      // Fastify checks a body only against the media types the schema names: anything else
      // (text/plain, no body at all) is refused here rather than reaching the handler unchecked.
      onRequest: async (request, reply) => {
        const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
        if (type !== 'application/json' && type !== 'application/x-www-form-urlencoded') {
          return reply
            .code(415)
            .send({
              error: 'Unsupported Media Type',
              message: 'Send the log-in as JSON or as a form.',
            });
        }
      },
      // Switching accounts is for the signed in: 401 before the form is read.
      preValidation: async (request) => {
        if (isFormPost(request)) await requireSession(request);
      },
    },
    // The body was checked against its content type's schema above (typed per branch here).
    async (request, reply) =>
      isFormPost(request)
        ? switchAccountHandler(
            request,
            reply,
            request.body as z.output<typeof impersonateFormSchema>,
          )
        : logInHandler(request, reply, request.body as z.output<typeof loginInputSchema>),
  );

  async function logInHandler(
    request: FastifyRequest,
    reply: FastifyReply,
    input: z.output<typeof loginInputSchema>,
  ) {
    const signedIn = await logIn(app.db, { ...input, ip: request.ip });
    await app.sessions.start(reply, { ...signedIn, userAgent: request.headers['user-agent'] });
    return reply
      .type('text/plain; charset=utf-8')
      .send(safeRedirectPath(input.redirectTo, '/dashboard'));
  }

  async function switchAccountHandler(
    request: FastifyRequest,
    reply: FastifyReply,
    form: z.output<typeof impersonateFormSchema>,
  ) {
    const session = await requireSession(request);
    const next = await switchAccount(app.db, session, form);
    await app.sessions.start(reply, { ...next, userAgent: request.headers['user-agent'] });
    return reply.redirect(safeRedirectPath(form.redirectTo, '/dashboard'), 303);
  }
}
