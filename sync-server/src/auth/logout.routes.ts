import { fullName } from '@platform/schema/app/full-name.rules';
import type { FastifyInstance } from 'fastify';
import { forgetSessionDevices } from '../notifications/notifications.service.ts';
import { isFormPost } from './form-post.ts';
import { sendServerPage } from '../web/server-page.ts';
import { logoutPage } from './logout-page.ts';

/** spec §2 /auth/logout: GET asks (a page), POST signs out (behind the CSRF origin check). */
export async function logoutRoutes(app: FastifyInstance) {
  app.get('/auth/logout', async (request, reply) => {
    const session = await request.getSession();
    if (!session) return reply.redirect('/auth/login', 303);
    const name = fullName(session.user);
    return sendServerPage(reply, logoutPage(name));
  });

  // The page's form (and the app's Sign out, which posts the same form) goes on to log-in;
  // fetch gets 204.
  app.post('/auth/logout', async (request, reply) => {
    const session = await request.getSession();
    if (session) await forgetSessionDevices(app.db, session.sessionId);
    await app.sessions.end(request, reply);
    return isFormPost(request) ? reply.redirect('/auth/login', 303) : reply.code(204).send();
  });
}
