import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { loadConfig, type Config } from './config.ts';
import { openDatabase, type Database } from './db/open-database.ts';

/** How long a drain may take: an orchestrator's grace period (Kubernetes: 30 s) less a margin. */
const SHUTDOWN_GRACE_MS = 25_000;

/**
 * How long a drain reads what already reached it before closing idle connections: a request
 * sent before the signal may not be read yet (a busy event loop — PGlite runs in it), and a
 * connection closed unread resets that request instead of answering it.
 */
const DRAIN_SETTLE_MS = 250;

/**
 * Stops in order (decision 0031): new requests are answered 503 at once; then the app closes —
 * it stops listening, ends live streams with a reconnect hint and answers every request it
 * began — and only then the database, which those requests were still using (PGlite crashed
 * with 'PGlite is closed' when it went first).
 */
export async function stopServer(app: FastifyInstance, database: Database): Promise<void> {
  app.beginDraining();
  await new Promise((resolve) => setTimeout(() => setImmediate(resolve), DRAIN_SETTLE_MS));
  await app.close();
  await database.close();
}

/** Opens the database (running migrations), builds the app and listens; drains on SIGTERM. */
export async function startServer(config: Config = loadConfig(), hooks: { onDatabase?: (database: Database) => Promise<void> } = {}) {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await hooks.onDatabase?.(database);
  const app = await buildApp({
    config,
    database,
    logger: {
      level: config.logLevel,
      ...(config.env === 'development' ? { transport: { target: 'pino-pretty', options: { ignore: 'pid,hostname' } } } : {}),
    },
  });
  await app.listen({ port: config.port, host: config.host });
  const shutdown = (signal: string) => {
    app.log.info(`${signal} received, draining`);
    // A request that never ends must not keep the process from stopping.
    setTimeout(() => {
      app.log.error(`still draining after ${SHUTDOWN_GRACE_MS} ms; exiting`);
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    stopServer(app, database).then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  // Once each: a second signal gets Node's default, an immediate stop.
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  return { app, database, config };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  startServer().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
