import type { AccountDatabase } from '../../db/database.ts';

/**
 * Resolves once every one of these people has a roster item on this device, or after
 * `timeoutMs` — whichever comes first. Without a local database there is nothing to wait for.
 */
export function waitForRosterMembers(
  db: AccountDatabase | null,
  userIds: readonly string[],
  timeoutMs: number,
): Promise<void> {
  if (!db || userIds.length === 0) return Promise.resolve();
  return new Promise((resolve) => {
    let finished = false;
    let unsubscribe = () => {};
    const finish = () => {
      if (finished) return;
      finished = true;
      window.clearTimeout(timer);
      unsubscribe();
      resolve();
    };
    const timer = window.setTimeout(finish, timeoutMs);
    const subscription = db
      .collectionOf('roster')
      .find()
      .$.subscribe((documents) => {
        const present = new Set(documents.map((doc) => doc.athlete.id));
        if (userIds.every((id) => present.has(id))) finish();
      });
    unsubscribe = () => subscription.unsubscribe();
    // The first answer can arrive before `subscription` exists.
    if (finished) subscription.unsubscribe();
  });
}
