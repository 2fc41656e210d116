import { BehaviorSubject } from 'rxjs';

/**
 * The local changes not yet acknowledged by the server, per collection — what the sync
 * indicator counts. Kept in localStorage (when there is one) so the count survives a reload
 * of an offline kiosk; RxDB keeps the changes themselves.
 */
export class PendingWrites {
  private readonly ids = new Map<string, Set<string>>();
  readonly count$ = new BehaviorSubject(0);

  constructor(private readonly storageKey: string) {
    this.load();
    this.publish();
    // Only the leading tab replicates: the others hear of what it sent through the storage.
    globalThis.addEventListener?.('storage', (event: StorageEvent) => {
      if (event.key !== storageKey) return;
      this.load();
      this.count$.next(this.total());
    });
  }

  private load(): void {
    this.ids.clear();
    try {
      const saved = JSON.parse(globalThis.localStorage?.getItem(this.storageKey) ?? '{}') as Record<
        string,
        string[]
      >;
      for (const [collection, ids] of Object.entries(saved)) this.ids.set(collection, new Set(ids));
    } catch {
      // Unreadable or absent: start empty; RxDB still pushes everything it has.
    }
  }

  has(collection: string, id: string): boolean {
    return this.ids.get(collection)?.has(id) ?? false;
  }

  add(collection: string, id: string): void {
    const set = this.ids.get(collection) ?? new Set<string>();
    set.add(id);
    this.ids.set(collection, set);
    this.publish();
  }

  remove(collection: string, id: string): void {
    if (this.ids.get(collection)?.delete(id)) this.publish();
  }

  clear(): void {
    this.ids.clear();
    this.publish();
  }

  private total(): number {
    let total = 0;
    for (const set of this.ids.values()) total += set.size;
    return total;
  }

  private publish(): void {
    const total = this.total();
    try {
      globalThis.localStorage?.setItem(
        this.storageKey,
        JSON.stringify(Object.fromEntries([...this.ids].map(([k, v]) => [k, [...v]]))),
      );
    } catch {
      // Storage full or unavailable: the in-memory count is still right for this session.
    }
    this.count$.next(total);
  }
}

const byDatabase = new Map<string, PendingWrites>();
/** One counter per local database, shared by the writers and the replication. */
export function pendingWritesOf(databaseName: string): PendingWrites {
  let pending = byDatabase.get(databaseName);
  if (!pending) {
    pending = new PendingWrites(`sync-pending:${databaseName}`);
    byDatabase.set(databaseName, pending);
  }
  return pending;
}
