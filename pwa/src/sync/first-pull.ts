import { BehaviorSubject } from 'rxjs';

/**
 * Which collections of a local database have been pulled from the server at least once (ever,
 * on this device) — until then an empty replica means "not here yet", not "nothing": a screen
 * says it is loading rather than, say, offering Clock In to someone who is clocked in. Kept in
 * localStorage, so a reload offline still knows.
 */
export class FirstPulls {
  readonly done$: BehaviorSubject<ReadonlySet<string>>;

  constructor(private readonly storageKey: string) {
    let saved: string[] = [];
    try {
      saved = JSON.parse(globalThis.localStorage?.getItem(storageKey) ?? '[]') as string[];
    } catch {
      // Unreadable: the next pull says it again.
    }
    this.done$ = new BehaviorSubject<ReadonlySet<string>>(new Set(saved));
    // Only the leading tab replicates: the others learn of its first pulls through the storage.
    globalThis.addEventListener?.('storage', (event: StorageEvent) => {
      if (event.key !== storageKey || !event.newValue) return;
      try {
        this.done$.next(new Set(JSON.parse(event.newValue) as string[]));
      } catch {
        // Unreadable: keep what this tab knows.
      }
    });
  }

  mark(collection: string): void {
    if (this.done$.value.has(collection)) return;
    const next = new Set(this.done$.value).add(collection);
    try {
      globalThis.localStorage?.setItem(this.storageKey, JSON.stringify([...next]));
    } catch {
      // Storage full or unavailable: this session still knows.
    }
    this.done$.next(next);
  }
}

const byDatabase = new Map<string, FirstPulls>();
export function firstPullsOf(databaseName: string): FirstPulls {
  let pulls = byDatabase.get(databaseName);
  if (!pulls) {
    pulls = new FirstPulls(`sync-pulled:${databaseName}`);
    byDatabase.set(databaseName, pulls);
  }
  return pulls;
}
