import { ConfigError, loadConfig } from '../sync-server/src/config.ts';
import { startServer } from '../sync-server/src/server.ts';
import { demoEnvironment } from './lib/demo-env.ts';
import { buildPwa } from './lib/pwa-build.ts';
import { printDemoLogins, seedDemo } from './seed.ts';

/**
 * `npm start`: the whole platform on one process — the embedded database (PGlite in ./.data)
 * unless DATABASE_URL is set, the demo organisations seeded on first run, the built PWA.
 */
try {
  const config = loadConfig(demoEnvironment(process.env));
  if (!process.env.SKIP_PWA_BUILD) buildPwa();
  let firstRun = false;
  const { config: running } = await startServer(config, {
    onDatabase: async (database) => {
      firstRun = (await seedDemo(database.db)).created;
    },
  });
  if (firstRun) console.log('  Seeded the demo organisations (first run).');
  printDemoLogins(running.publicUrl, { devTools: running.devTools });
  console.log(`  Database: ${running.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${running.dataDir}`}\n`);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
