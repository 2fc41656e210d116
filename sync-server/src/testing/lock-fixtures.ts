import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/open-database.ts';

/**
 * A transaction that takes a lock (`statement`) and holds it until released: what another
 * writer of the same thing meets mid-race. Answers once the lock is held; `release` ends the
 * transaction and waits for it.
 */
export async function holdLock(db: Db, statement: SQL): Promise<{ release: () => Promise<void> }> {
  let letGo = () => {};
  const released = new Promise<void>((resolve) => (letGo = resolve));
  let holding = () => {};
  const held = new Promise<void>((resolve) => (holding = resolve));
  const holder = db.transaction(async (tx) => {
    await tx.execute(statement);
    holding();
    await released;
  });
  await Promise.race([held, holder]);
  return {
    release: async () => {
      letGo();
      await holder;
    },
  };
}

/** The lock an organisation's imports take one at a time (imports.service.ts). */
export const importLockOf = (orgId: string): SQL =>
  sql`select pg_advisory_xact_lock(hashtextextended(${`import:${orgId}`}, 0))`;
