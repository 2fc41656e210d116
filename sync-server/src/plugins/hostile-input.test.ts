import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerNotes } from '@platform/schema/db';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { seedSyncOrg } from '../testing/sync-fixtures.ts';

// Issue 11: input a client can send must answer 4xx, never 5xx, and never be stored as
// something other than what was sent.
describe.each(testDatabaseKinds)('hostile input on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Awaited<ReturnType<typeof seedSyncOrg>>;
  let rosterId = '';
  let customerId = '';
  const send = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: string | Buffer) =>
    t.app.inject({
      method,
      url,
      headers: { ...a.manager.jar.headers(), 'content-type': 'application/json' },
      ...(payload === undefined ? {} : { payload }),
    });
  const notesOf = async () =>
    (await t.db.select().from(customerNotes).where(eq(customerNotes.userId, customerId))).map(
      (note) => note.body,
    );

  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await seedSyncOrg(t.app, t.db);
    const added = await send(
      'POST',
      '/api/crm/customers',
      JSON.stringify({ customerEmail: 'hostile@example.test', sendInviteEmails: false }),
    );
    expect(added.statusCode).toBe(201);
    const customer = added.json<{ id: string; athlete: { id: string } }>();
    rosterId = customer.id;
    customerId = customer.athlete.id;
  });
  afterAll(() => t.close());

  it('answers a NUL byte in a text field with 400, in a body or a query string', async () => {
    const note = await send(
      'POST',
      `/api/crm/customers/${rosterId}/notes`,
      JSON.stringify({ body: 'before\u0000after' }),
    );
    expect(note.statusCode).toBe(400);
    expect((await send('GET', '/api/crm/customers?q=ab%00cd')).statusCode).toBe(400);
    expect(await notesOf()).toEqual([]);
  });

  it('answers collection names that are Object.prototype keys with 404', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect((await send('GET', `/api/sync/${name}/pull`)).statusCode, name).toBe(404);
      expect((await send('POST', `/api/sync/${name}/push`, '[]')).statusCode, name).toBe(404);
    }
  });
});
