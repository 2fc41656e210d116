import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hostnameOf, isLoopbackAddress, isLoopbackHost } from './loopback.ts';
import { listMailbox } from './mailbox.service.ts';
import { mailboxPage } from './mailbox-page.ts';
import { notificationsPage } from './notifications-page.ts';
import { listSentNotices } from './sent-notices.service.ts';
import { sendServerPage } from '../web/server-page.ts';

/**
 * Development pages: only when the configuration turned them on (DEV_TOOLS=1, development,
 * loopback; see dev-tools.config.ts). The mailbox exists only where emails go to the outbox:
 * it shows password reset links, so on a public server it would hand out every account.
 */
export async function devToolsRoutes(app: FastifyInstance) {
  if (!app.config.devTools) return;
  // This plugin is encapsulated: the hook guards its own routes only.
  app.addHook('onRequest', async (request, reply) => {
    if (!madeOnThisMachine(request)) return reply.callNotFound();
  });
  // Notices are recorded whatever the Notifier adapter, so this page exists in every
  // development server (which pushes through Web Push by default).
  app.get('/dev/notifications', async (_request, reply) =>
    sendServerPage(reply, notificationsPage(await listSentNotices(app.db))),
  );
  app.get('/api/dev/notifications', async (_request, reply) =>
    reply.header('cache-control', 'no-store').send(await listSentNotices(app.db)),
  );

  if (app.mailer.kind !== 'outbox') return;

  app.get('/dev/mailbox', async (_request, reply) =>
    sendServerPage(reply, mailboxPage(await listMailbox(app.db))),
  );

  app.get('/api/dev/mailbox', async (_request, reply) =>
    reply.header('cache-control', 'no-store').send(await listMailbox(app.db)),
  );
}

/**
 * A request from this machine to a loopback name. The Host header (which a page cannot set)
 * refuses DNS rebinding — a site whose name now points at 127.0.0.1 — and every address on
 * the way (the socket's, and each X-Forwarded-For hop) refuses requests a proxy passed on.
 */
function madeOnThisMachine(request: FastifyRequest): boolean {
  const forwarded = String(request.headers['x-forwarded-for'] ?? '')
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean);
  return (
    isLoopbackHost(hostnameOf(request.headers.host)) &&
    [request.socket.remoteAddress, ...forwarded].every(isLoopbackAddress) &&
    request.headers.forwarded === undefined
  );
}
