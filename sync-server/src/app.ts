import formbody from '@fastify/formbody';
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { JWTVerifyGetKey } from 'jose';
import type { Config } from './config.ts';
import type { Database } from './db/open-database.ts';
import type { Mailer, MailTransport } from './adapters/mailer/port.ts';
import { OutboxTransport } from './adapters/mailer/outbox.ts';
import { QueuedMailer } from './adapters/mailer/queued-mailer.ts';
import { SmtpTransport } from './adapters/mailer/smtp.ts';
import type { Notifier } from './adapters/notifier/port.ts';
import type { PaymentProcessor } from './adapters/payments/port.ts';
import { createPaymentProcessor } from './adapters/payments/create-payment-processor.ts';
import { createNotifier } from './adapters/notifier/create-notifier.ts';
import { dbPlugin } from './plugins/db.ts';
import { httpMapPlugin } from './plugins/http-map.ts';
import { drainingPlugin } from './plugins/draining.ts';
import { jsonBodyPlugin } from './plugins/json-body.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { csrfPlugin } from './plugins/csrf.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { rateLimitsPlugin } from './plugins/rate-limits.ts';
import { routeContractsPlugin } from './plugins/route-contracts.ts';
import { sessionPlugin } from './plugins/session.ts';
import { healthRoutes } from './health/routes.ts';
import { webManifestRoutes } from './web-manifest/routes.ts';
import { registerSpa } from './web/spa.ts';
import { brandShell } from './branding/routes.ts';
import { registerFeatures } from './features.ts';
import type { JobQueueSettings } from './jobs/job-queue.ts';
import { registerJobHandlers } from './jobs/job-handlers.ts';
import { jobsPlugin } from './jobs/jobs.plugin.ts';

export type AppDeps = {
  config: Config;
  database: Database;
  /** How emails leave (tests pass one pointed at a local SMTP server, or one that fails). */
  mailTransport?: MailTransport;
  /** Tests poll faster, shorten the backoff, or keep the workers off. */
  jobs?: Partial<JobQueueSettings>;
  /** Tests inject one (an outbox, or an adapter pointed at a local push service). */
  notifier?: Notifier;
  logger?: FastifyServerOptions['logger'];
  /** Google's signing keys; tests pass a local key set (jose createLocalJWKSet). */
  googleKeys?: JWTVerifyGetKey;
  /** Where cards are kept and charged; the one the configuration names unless one is given. */
  paymentProcessor?: PaymentProcessor;
};

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    mailer: Mailer;
    notifier: Notifier;
    paymentProcessor: PaymentProcessor;
  }
}

/** Builds the whole app: external plugins, our plugins, features, then the built PWA. */
export async function buildApp(deps: AppDeps) {
  const { trustProxy } = deps.config;
  const app = Fastify({
    logger: deps.logger ?? false,
    // Close drains (decision 0031): idle sockets close at once, requests in flight are
    // answered, live streams are ended by the sync plugin, and the 503 of a request arriving
    // meanwhile is the draining plugin's, with its retry hint.
    forceCloseConnections: 'idle',
    return503OnClosing: false,
    // A hop count as the function Fastify would build from it (its types lack the number).
    trustProxy:
      typeof trustProxy === 'number' ? (_address: string, hop: number) => hop < trustProxy : trustProxy,
    bodyLimit: 1_048_576,
  });
  app.decorate('config', deps.config);
  const mailTransport: MailTransport =
    deps.mailTransport ??
    (deps.config.smtpUrl
      ? new SmtpTransport(deps.config.smtpUrl, deps.config.mailFrom)
      : new OutboxTransport());
  app.addHook('onClose', async () => mailTransport.close?.());
  const notifier = deps.notifier ?? (await createNotifier(deps.database.db, deps.config.push));
  app.decorate('notifier', notifier);
  app.addHook('onClose', async () => notifier.close?.());
  await app.register(securityHeadersPlugin);
  await app.register(formbody);
  await app.register(jsonBodyPlugin);
  await app.register(httpMapPlugin);
  // Zod compiles every route's declared schemas; before any route is added.
  await app.register(routeContractsPlugin);
  await app.register(drainingPlugin);
  await app.register(dbPlugin, { database: deps.database });
  app.decorate(
    'paymentProcessor',
    deps.paymentProcessor ??
      createPaymentProcessor(
        { processor: deps.config.paymentProcessor, stripe: deps.config.stripe },
        deps.database.db,
      ),
  );
  await app.register(jobsPlugin, { settings: deps.jobs ?? {} });
  app.decorate('mailer', new QueuedMailer(deps.database.db, app.jobs, mailTransport.kind));
  await app.register(rateLimitsPlugin);
  await app.register(csrfPlugin, { publicUrl: deps.config.publicUrl });
  await app.register(sessionPlugin, { secret: deps.config.sessionSecret, secureCookies: deps.config.secureCookies });
  await app.register(healthRoutes);
  await app.register(metricsPlugin);
  await app.register(webManifestRoutes);
  await registerFeatures(app, { googleKeys: deps.googleKeys });
  registerJobHandlers(app, { mailTransport });
  await registerSpa(app, deps.config.pwaDist, brandShell(app));
  return app;
}
