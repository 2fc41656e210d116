import formbody from '@fastify/formbody';
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { JWTVerifyGetKey } from 'jose';
import type { Config } from './config.ts';
import type { Database } from './db/open-database.ts';
import type { Mailer } from './adapters/mailer/port.ts';
import { OutboxMailer } from './adapters/mailer/outbox.ts';
import { SmtpMailer } from './adapters/mailer/smtp.ts';
import type { Notifier } from './adapters/notifier/port.ts';
import { createNotifier } from './adapters/notifier/create-notifier.ts';
import { dbPlugin } from './plugins/db.ts';
import { httpMapPlugin } from './plugins/http-map.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { csrfPlugin } from './plugins/csrf.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { sessionPlugin } from './plugins/session.ts';
import { healthRoutes } from './health/routes.ts';
import { webManifestRoutes } from './web-manifest/routes.ts';
import { registerSpa } from './web/spa.ts';
import { brandShell } from './branding/routes.ts';
import { registerFeatures } from './features.ts';

export type AppDeps = {
  config: Config;
  database: Database;
  mailer?: Mailer;
  /** Tests inject one (an outbox, or an adapter pointed at a local push service). */
  notifier?: Notifier;
  logger?: FastifyServerOptions['logger'];
  /** Google's signing keys; tests pass a local key set (jose createLocalJWKSet). */
  googleKeys?: JWTVerifyGetKey;
};

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    mailer: Mailer;
    notifier: Notifier;
  }
}

/** Builds the whole app: external plugins, our plugins, features, then the built PWA. */
export async function buildApp(deps: AppDeps) {
  const app = Fastify({
    logger: deps.logger ?? false,
    forceCloseConnections: true,
    trustProxy: true,
    bodyLimit: 1_048_576,
  });
  app.decorate('config', deps.config);
  app.decorate(
    'mailer',
    deps.mailer ??
      (deps.config.smtpUrl
        ? new SmtpMailer(deps.database.db, deps.config.smtpUrl, deps.config.mailFrom)
        : new OutboxMailer(deps.database.db)),
  );
  const notifier = deps.notifier ?? (await createNotifier(deps.database.db, deps.config.push));
  app.decorate('notifier', notifier);
  app.addHook('onClose', async () => notifier.close?.());
  await app.register(securityHeadersPlugin);
  await app.register(formbody);
  await app.register(httpMapPlugin);
  await app.register(dbPlugin, { database: deps.database });
  await app.register(csrfPlugin, { publicUrl: deps.config.publicUrl });
  await app.register(sessionPlugin, { secret: deps.config.sessionSecret, secureCookies: deps.config.secureCookies });
  await app.register(healthRoutes);
  await app.register(metricsPlugin);
  await app.register(webManifestRoutes);
  await registerFeatures(app, { googleKeys: deps.googleKeys });
  await registerSpa(app, deps.config.pwaDist, brandShell(app));
  return app;
}
