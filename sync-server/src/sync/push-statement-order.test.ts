import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOccurrence } from '../testing/schedule-fixtures.ts';
import {
  booking,
  insertCustomers,
  pulledAs,
  pushAs,
  pushNewAs,
  seedSyncOrg,
  type Person,
} from '../testing/sync-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';

/**
 * Decision 0075: a push starts statements that do not need each other's answers one after the
 * other and awaits them together; the order they reach the database is their lock order and
 * what each read sees. This reads the order off the wire — every Bind or simple Query a
 * postgres.js socket writes, named by the text its Parse gave it — for a push of a request and
 * a cancellation. PostgreSQL only: PGlite runs a transaction's queries through one queue, in
 * call order. (From the adversarial review of the decision, which also raced it.)
 */

// ---------------------------------------------------------------------------------------------
// Wire capture
// ---------------------------------------------------------------------------------------------
type Sent = { socket: number; text: string };
const sent: Sent[] = [];
let capturing = false;
let nextSocket = 0;
const socketIds = new WeakMap<object, number>();
const parsed = new WeakMap<object, Map<string, string>>();
const originalWrite = net.Socket.prototype.write;

function cstring(buffer: Buffer, at: number): [string, number] {
  const end = buffer.indexOf(0, at);
  return [buffer.toString('utf8', at, end), end + 1];
}

function record(socket: object, chunk: Buffer) {
  if (!socketIds.has(socket)) socketIds.set(socket, nextSocket++);
  const names = parsed.get(socket) ?? new Map<string, string>();
  parsed.set(socket, names);
  let at = 0;
  while (at + 5 <= chunk.length) {
    const type = String.fromCharCode(chunk[at]!);
    const length = chunk.readInt32BE(at + 1);
    if (!/[A-Za-z]/.test(type) || length < 4 || at + 1 + length > chunk.length) return;
    const body = chunk.subarray(at + 5, at + 1 + length);
    if (type === 'P') {
      const [name, next] = cstring(body, 0);
      names.set(name, cstring(body, next)[0]);
    } else if (type === 'B' && capturing) {
      const [, next] = cstring(body, 0);
      const [name] = cstring(body, next);
      sent.push({ socket: socketIds.get(socket)!, text: names.get(name) ?? `?${name}` });
    } else if (type === 'Q' && capturing) {
      sent.push({ socket: socketIds.get(socket)!, text: cstring(body, 0)[0] });
    }
    at += 1 + length;
  }
}

/** Reads what postgres.js writes; installed for this file's tests only (files share workers). */
const recordingWrite = function (this: net.Socket, chunk: unknown, ...rest: unknown[]) {
  if (Buffer.isBuffer(chunk)) {
    try {
      record(this, chunk);
    } catch {
      // not a frontend message
    }
  }
  return (originalWrite as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
} as typeof net.Socket.prototype.write;

function label(text: string): string {
  const t = text.toLowerCase().trim();
  if (t.startsWith('begin')) return 'BEGIN';
  if (t.startsWith('commit')) return 'COMMIT';
  if (t.startsWith('rollback')) return 'ROLLBACK';
  if (t.includes("'slots:'")) return 'slot-locks';
  if (t.includes('pg_advisory_xact_lock')) return 'id-locks';
  if (t.includes('pg_notify') && t.includes('json_build_object')) return 'notice';
  if (t.includes('pg_notify')) return 'job-wake';
  if (t.includes('pgboss')) return 'job-insert';
  if (t.startsWith('select') && t.includes('from "users"')) return 'people';
  if (t.startsWith('select') && t.includes('from "class_occurrences"') && t.includes('for update'))
    return 'occurrence-locks';
  if (t.startsWith('select') && t.includes('from "bookings"') && t.includes('skip locked'))
    return 'waitlist';
  if (t.startsWith('select') && t.includes('from "bookings"') && t.includes('for update'))
    return 'masters';
  if (t.startsWith('select') && t.includes('from "bookings"') && t.includes('"credit_group_id"'))
    return 'credit-groups';
  if (t.startsWith('select') && t.includes('from "bookings"')) return 'active-bookings';
  if (t.startsWith('insert into "bookings"')) return 'upsert-bookings';
  if (t.startsWith('update "class_occurrences"')) return 'save-counts';
  if (t.startsWith('update "booking_payments"')) return 'refund-due';
  return t.slice(0, 60);
}

/** The statements of the first transaction begun while capturing, in wire order. */
function firstTransaction(): string[] {
  const begin = sent.findIndex((s) => label(s.text) === 'BEGIN');
  if (begin < 0) return [];
  const socket = sent[begin]!.socket;
  const out: string[] = [];
  for (const s of sent.slice(begin).filter((x) => x.socket === socket)) {
    out.push(label(s.text));
    if (out.at(-1) === 'COMMIT' || out.at(-1) === 'ROLLBACK') break;
  }
  return out;
}

async function captured<T>(run: () => Promise<T>): Promise<{ result: T; order: string[] }> {
  sent.length = 0;
  capturing = true;
  try {
    const result = await run();
    return { result, order: firstTransaction() };
  } finally {
    capturing = false;
  }
}

describe.runIf(process.env.DATABASE_URL)('the statements of a booking push on postgres', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Awaited<ReturnType<typeof seedSyncOrg>>;

  const pulled = (who: Person, id: string) => pulledAs(t, who, 'bookings', id);
  const customers = (n: number) => insertCustomers(t.db, a.org.id, n);

  beforeAll(async () => {
    t = await createTestApp('postgres');
    a = await seedSyncOrg(t.app, t.db);
    net.Socket.prototype.write = recordingWrite;
  });
  afterAll(async () => {
    net.Socket.prototype.write = originalWrite;
    await t?.close();
  });

  it('sends the check reads and the writes in program order (one push: a request and a cancellation)', async () => {
    const { occurrence: x } = await insertOccurrence(t.db, a.org.id, { capacity: 5 });
    const { occurrence: y } = await insertOccurrence(t.db, a.org.id, { capacity: 5 });
    const [p1, p2] = await customers(2);
    const held = booking(a.org.id, p2!, { occurrenceId: y.id });
    expect((await pushNewAs(t, a.manager, 'bookings', [held])).statusCode).toBe(200);
    const master = await pulled(a.manager, held.id);
    const request = booking(a.org.id, p1!, { occurrenceId: x.id });
    const { result, order } = await captured(() =>
      pushAs(t, a.manager, 'bookings', [
        { assumedMasterState: null, newDocumentState: request },
        {
          assumedMasterState: master,
          newDocumentState: { ...master, status: 'cancelled', updatedAt: new Date().toISOString() },
        },
      ]),
    );
    expect(result.statusCode, result.body).toBe(200);
    const at = (name: string) => order.indexOf(name);
    expect(at('id-locks')).toBeGreaterThan(at('BEGIN'));
    expect(at('masters')).toBeGreaterThan(at('id-locks'));
    expect(at('people')).toBeGreaterThan(at('masters'));
    expect(at('occurrence-locks')).toBeGreaterThan(at('people'));
    expect(at('active-bookings')).toBeGreaterThan(at('occurrence-locks'));
    expect(at('credit-groups')).toBeGreaterThan(at('active-bookings'));
    expect(at('upsert-bookings')).toBeGreaterThan(at('credit-groups'));
    expect(at('save-counts')).toBeGreaterThan(at('upsert-bookings'));
  });
});
