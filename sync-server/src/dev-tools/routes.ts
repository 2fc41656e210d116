import type { FastifyInstance } from 'fastify';
import { listMailbox } from './mailbox.service.ts';
import { renderMailboxPage } from './mailbox-page.ts';

/**
 * The development mailbox, only where emails go to the outbox and never in production: the
 * page shows password reset links, so on a public server it would hand out every account.
 */
export async function devToolsRoutes(app: FastifyInstance) {
  if (app.mailer.kind !== 'outbox' || app.config.env === 'production') return;

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
