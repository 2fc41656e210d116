import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerNotes } from '@platform/schema/db';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { seedSyncOrg, timeEntry } from '../testing/sync-fixtures.ts';

/** JSON text nested `depth` levels deep (JSON.stringify itself overflows the stack on it). */
const nestedObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

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

  it('refuses a push nested 5,000 levels deep with 400', async () => {
    const doc = JSON.stringify(timeEntry(a.org.id, a.manager.id));
    const deepDoc = `[{"assumedMasterState":null,"newDocumentState":${doc.slice(0, -1)},"extra":${nestedObject(5000)}}}]`;
    expect((await send('POST', '/api/sync/time-entries/push', deepDoc)).statusCode).toBe(400);
    const deepArray = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    expect((await send('POST', '/api/sync/time-entries/push', deepArray)).statusCode).toBe(400);
  });

  it('refuses lone UTF-16 surrogates and invalid UTF-8 rather than storing something else', async () => {
    for (const escaped of ['\\ud800', 'x\\udfffy', '\\udc00\\ud800']) {
      const res = await send(
        'POST',
        `/api/crm/customers/${rosterId}/notes`,
        `{"body":"a${escaped}b"}`,
      );
      expect(res.statusCode, escaped).toBe(400);
    }
    const tags = await send('PUT', `/api/crm/customers/${rosterId}/tags`, '{"tags":["\\ud83d"]}');
    expect(tags.statusCode).toBe(400);
    const invalidUtf8 = Buffer.concat([
      Buffer.from('{"body":"a'),
      Buffer.from([0xff, 0xfe, 0xed, 0xa0, 0x80]),
      Buffer.from('b"}'),
    ]);
    expect(
      (await send('POST', `/api/crm/customers/${rosterId}/notes`, invalidUtf8)).statusCode,
    ).toBe(400);
    expect(await notesOf()).toEqual([]);

    // A surrogate pair (an emoji), escaped or not, is text like any other.
    const emoji = await send(
      'POST',
      `/api/crm/customers/${rosterId}/notes`,
      '{"body":"a\\ud83d\\ude00b 😀"}',
    );
    expect(emoji.statusCode).toBe(201);
    expect(await notesOf()).toEqual(['a😀b 😀']);
  });
});
