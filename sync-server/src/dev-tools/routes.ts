import type { FastifyInstance } from 'fastify';
import { listMailbox } from './mailbox.service.ts';
import { renderMailboxPage } from './mailbox-page.ts';
import { renderNotificationsPage } from './notifications-page.ts';
import { listSentNotices } from './sent-notices.service.ts';

/**
 * Development pages, never in production. The mailbox exists only where emails go to the
 * outbox: it shows password reset links, so on a public server it would hand out every account.
 */
export async function devToolsRoutes(app: FastifyInstance) {
  if (app.config.env === 'production') return;
  // Notices are recorded whatever the Notifier adapter, so this page exists in every
  // development server (which pushes through Web Push by default).
  app.get('/dev/notifications', async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      .header('cache-control', 'no-store')
      .send(renderNotificationsPage(await listSentNotices(app.db))),
  );
  app.get('/api/dev/notifications', async (_request, reply) =>
    reply.header('cache-control', 'no-store').send(await listSentNotices(app.db)),
  );

  if (app.mailer.kind !== 'outbox') return;

  app.get('/dev/mailbox', async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      .header('cache-control', 'no-store')
      .send(renderMailboxPage(await listMailbox(app.db))),
  );

  app.get('/api/dev/mailbox', async (_request, reply) =>
    reply.header('cache-control', 'no-store').send(await listMailbox(app.db)),
  );
}
