import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timeEntries } from '@platform/schema/db';
import { syncMessages } from '@platform/schema/sync/sync.messages';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import {
  pushAs,
  pushNewAs,
  seedSyncOrg,
  timeEntry,
  type Person,
} from '../testing/sync-fixtures.ts';

type Entry = ReturnType<typeof timeEntry>;

/**
 * Issue 12 (decision 0048): a push naming a document the pusher cannot see — another
 * organisation's or person's, or one the server does not have at all — learns nothing of
 * which it is. An unused id the pusher may create is still created.
 */
describe.each(testDatabaseKinds)('documents out of the pusher’s reach on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Awaited<ReturnType<typeof seedSyncOrg>>;
  let b: Awaited<ReturnType<typeof seedSyncOrg>>;

  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await seedSyncOrg(t.app, t.db);
    b = await seedSyncOrg(t.app, t.db);
  });
  afterAll(() => t.close());

  /** An edit as a device makes it: the state it last saw, and the change. */
  const edit = (who: Person, assumed: Entry) =>
    pushAs(t, who, 'time-entries', [
      { assumedMasterState: assumed, newDocumentState: { ...assumed, breakIntervals: [] } },
    ]);
  /** The answer as bytes, with the document's id put back to a placeholder. */
  const answer = async (response: Awaited<ReturnType<typeof edit>>, id: string) => ({
    status: response.statusCode,
    body: response.body.replaceAll(id, '<id>'),
  });
  const stored = async (id: string) =>
    t.db.select().from(timeEntries).where(eq(timeEntries.id, id));

  it('answers an edit of another organisation’s document exactly as one of a document nobody has', async () => {
    const theirs = timeEntry(a.org.id, a.manager.id);
    expect((await pushNewAs(t, a.manager, 'time-entries', [theirs])).statusCode).toBe(200);
    // Organisation b knows the id (a former employee, say) and claims the document as its own.
    const claimed = { ...theirs, orgId: b.org.id, userId: b.manager.id };
    const nobodys = { ...claimed, id: randomUUID() };

    const known = await answer(await edit(b.manager, claimed), theirs.id);
    const unknown = await answer(await edit(b.manager, nobodys), nobodys.id);
    expect(known).toEqual(unknown);
    expect(known).toEqual({
      status: 422,
      body: JSON.stringify({ errors: [{ id: '<id>', message: syncMessages.notAmongYours }] }),
    });
    expect(await stored(nobodys.id)).toEqual([]);
    expect((await stored(theirs.id))[0]?.orgId).toBe(a.org.id);
  });

  it('answers a person of the same organisation the same way for a colleague’s document', async () => {
    const managers = timeEntry(a.org.id, a.manager.id);
    expect((await pushNewAs(t, a.manager, 'time-entries', [managers])).statusCode).toBe(200);
    // The staff member may only see and change their own entries.
    const claimed = { ...managers, userId: a.staff.id };
    const nobodys = { ...claimed, id: randomUUID() };
    expect(await answer(await edit(a.staff, claimed), managers.id)).toEqual(
      await answer(await edit(a.staff, nobodys), nobodys.id),
    );
  });

  it('answers the creation of an id held elsewhere with the same words, and creates an unused one', async () => {
    const theirs = timeEntry(a.org.id, a.manager.id);
    expect((await pushNewAs(t, a.manager, 'time-entries', [theirs])).statusCode).toBe(200);
    const taken = await pushNewAs(t, b.manager, 'time-entries', [
      { ...theirs, orgId: b.org.id, userId: b.manager.id },
    ]);
    const unseen = timeEntry(b.org.id, b.manager.id);
    const missing = await edit(b.manager, unseen);
    expect(await answer(taken, theirs.id)).toEqual(await answer(missing, unseen.id));
    // The one answer that must differ: an unused id is the pusher's to create.
    expect((await pushNewAs(t, b.manager, 'time-entries', [unseen])).statusCode).toBe(200);
    expect(await stored(unseen.id)).toHaveLength(1);
  });

  it('refuses an edit of a document the server does not have, and creates nothing', async () => {
    // Never pushed: the device names a state the server never held.
    const never = timeEntry(a.org.id, a.manager.id);
    const refused = await edit(a.manager, never);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      errors: [{ id: never.id, message: syncMessages.notAmongYours }],
    });
    expect(await stored(never.id)).toEqual([]);

    // Removed around the app (a person's or organisation's rows go with them, no tombstone).
    const gone = timeEntry(a.org.id, a.manager.id);
    expect((await pushNewAs(t, a.manager, 'time-entries', [gone])).statusCode).toBe(200);
    await t.db.execute(sql`delete from time_entries where id = ${gone.id}`);
    expect((await edit(a.manager, gone)).json()).toEqual({
      errors: [{ id: gone.id, message: syncMessages.notAmongYours }],
    });
    expect(await stored(gone.id)).toEqual([]);
  });

  it('creates a document whose assumed state is a tombstone, as the device records "never had it"', async () => {
    const entry = timeEntry(a.org.id, a.manager.id);
    const response = await pushAs(t, a.manager, 'time-entries', [
      { assumedMasterState: { ...entry, _deleted: true }, newDocumentState: entry },
    ]);
    expect(response.statusCode).toBe(200);
    expect(await stored(entry.id)).toHaveLength(1);
  });
});
