import { buildApp } from './app.ts';
import { loadConfig, type Config } from './config.ts';
import { openDatabase, type Database } from './db/open-database.ts';

/** Opens the database (running migrations), builds the app and listens; closes gracefully. */
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
  app.addHook('onClose', async () => database.close());
  await app.listen({ port: config.port, host: config.host });
  const shutdown = async (signal: string) => {
    app.log.info(`${signal} received, closing`);
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  return { app, database, config };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  startServer().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
