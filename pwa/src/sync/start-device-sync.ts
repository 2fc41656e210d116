import { fromEvent, map, merge, startWith } from 'rxjs';
import type { CollectionName } from '@platform/schema/sync/collections';
import { openAccountDatabase, type AccountDatabase } from '../db/database.ts';
import { startSync, type SyncEngine } from './replication.ts';

export type DeviceSync = { db: AccountDatabase; engine: SyncEngine; stop: () => Promise<void> };

/**
 * The one way a device starts replicating — an account's scope or a kiosk alike: opens the local
 * database, replicates the given collections (with the kiosk's credential when `fetch` says
 * so), follows the browser's online state, reconnects when the network returns (queued writes
 * leave at once), and stops in order: replication, then the database.
 */
export async function startDeviceSync(
  databaseName: string,
  collections: readonly CollectionName[],
  options: { fetch?: typeof fetch } = {},
): Promise<DeviceSync> {
  const db = await openAccountDatabase(databaseName, { collections });
  const online$ = merge(fromEvent(window, 'online'), fromEvent(window, 'offline')).pipe(
    map(() => navigator.onLine),
    startWith(navigator.onLine),
  );
  const engine = startSync(db, { collections, online$, ...options });
  const reconnect = () => engine.reconnect();
  window.addEventListener('online', reconnect);
  let stopped: Promise<void> | null = null;
  const stop = () =>
    (stopped ??= (async () => {
      window.removeEventListener('online', reconnect);
      await engine.stop();
      await db.close();
    })());
  return { db, engine, stop };
}
