import { collectionsFor } from '@platform/schema/sync/access.rules';
import { removeScopeDatabase } from '../../db/database.ts';
import { startDeviceSync, type DeviceSync } from '../../sync/start-device-sync.ts';
import { kioskFetch } from './api/kiosk-request.ts';

export type KioskSync = DeviceSync;

/** The kiosk's own local database: one per kiosk, never a person's (sign-out never touches it). */
export const kioskDatabaseName = (kioskId: string) =>
  `kiosk_${kioskId.replace(/[^a-z0-9]/gi, '').toLowerCase()}`;

/**
 * Replicates what the shared rule gives a kiosk — its organisation's time entries — through
 * the app's one device sync, with the kiosk's credential. Clock moves made here are local
 * writes that it pushes when it can; the unsent count survives a reload.
 */
export function startKioskSync(kioskId: string, orgId: string): Promise<KioskSync> {
  return startDeviceSync(
    kioskDatabaseName(kioskId),
    collectionsFor({ view: 'kiosk', orgId, claims: [] }),
    { fetch: kioskFetch },
  );
}

/** Leaving kiosk mode: the kiosk's time entries and unsent count leave the device. */
export async function removeKioskData(kioskId: string): Promise<void> {
  await removeScopeDatabase(kioskDatabaseName(kioskId));
}
