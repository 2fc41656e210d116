import webpush from 'web-push';
import { WebPushNotifier } from '../../sync-server/src/adapters/notifier/web-push.ts';
import { buildApp } from '../../sync-server/src/app.ts';
import { loadConfig } from '../../sync-server/src/config.ts';
import { startPushServiceStandIn } from '../../sync-server/src/testing/push-service-stand-in.ts';
import { createTestDatabase } from '../../sync-server/src/testing/test-database.ts';
import { pwaDist } from '../lib/pwa-build.ts';
import { seedDemo } from '../seed.ts';
import type { E2eServer } from './harness.ts';

/**
 * The real server as startE2eServer builds it, but pushing through the real Web Push adapter
 * to a local push service (the one outside party), whose certificate it trusts.
 */
export async function startWebPushE2eServer(env: Record<string, string> = {}): Promise<
  E2eServer & { pushService: Awaited<ReturnType<typeof startPushServiceStandIn>> }
> {
  const [database, pushService] = await Promise.all([
    createTestDatabase(process.env.DATABASE_URL ? 'postgres' : 'pglite'),
    startPushServiceStandIn(),
  ]);
  const { seed } = await seedDemo(database.db);
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const config = loadConfig({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: String(port),
    SESSION_SECRET: 'e2e-secret-e2e-secret-e2e-secret-0123456789',
    PWA_DIST: pwaDist,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ...env,
  });
  const vapid = { subject: 'mailto:e2e@example.test', ...webpush.generateVAPIDKeys() };
  const notifier = new WebPushNotifier(database.db, vapid, { agent: pushService.agent });
  const app = await buildApp({ config, database, notifier });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    url: config.publicUrl,
    seed,
    db: database.db,
    pushService,
    close: async () => {
      await app.close();
      await database.close();
      await pushService.close();
    },
  };
}
