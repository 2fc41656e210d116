import { fromEvent, map, merge, startWith } from 'rxjs';
import { collectionsFor } from '@platform/schema/sync/access.rules';
import {
  openAccountDatabase,
  removeScopeDatabase,
  type AccountDatabase,
} from '../../db/database.ts';
import { startSync, type SyncEngine } from '../../sync/replication.ts';
import { kioskFetch } from './api/kiosk-request.ts';

export type KioskSync = { db: AccountDatabase; engine: SyncEngine; stop: () => Promise<void> };

/** The kiosk's own local database: one per kiosk, never a person's (sign-out never touches it). */
export const kioskDatabaseName = (kioskId: string) =>
  `kiosk_${kioskId.replace(/[^a-z0-9]/gi, '').toLowerCase()}`;

/**
 * Replicates what the shared rule gives a kiosk — its organisation's time entries — through
 * the app's one replication engine, with the kiosk's credential. Clock moves made here are
 * local writes (saveDocument) that it pushes when it can; the unsent count survives a reload.
 */
export async function startKioskSync(kioskId: string, orgId: string): Promise<KioskSync> {
  const db = await openAccountDatabase(kioskDatabaseName(kioskId));
  const online$ = merge(fromEvent(window, 'online'), fromEvent(window, 'offline')).pipe(
    map(() => navigator.onLine),
    startWith(navigator.onLine),
  );
  const engine = startSync(db, {
    collections: collectionsFor({ view: 'kiosk', orgId, claims: [] }),
    fetch: kioskFetch,
    online$,
  });
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

/** Leaving kiosk mode: the kiosk's time entries and unsent count leave the device. */
export async function removeKioskData(kioskId: string): Promise<void> {
  await removeScopeDatabase(kioskDatabaseName(kioskId));
}
