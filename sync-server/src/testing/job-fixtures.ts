import { and, asc, eq, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { emailOutbox } from '@platform/schema/db';
import type { Db } from '../db/open-database.ts';

const TIMEOUT_MS = 15_000;
const POLL_MS = 20;
const pause = () => new Promise((resolve) => setTimeout(resolve, POLL_MS));

/**
 * Runs the app's queued jobs now: wakes its workers until no job is due or running (retries
 * waiting for their backoff are not due). Fails the test when jobs are still due after 15 s.
 */
export async function drainJobs(app: FastifyInstance): Promise<void> {
  const deadline = Date.now() + TIMEOUT_MS;
  let idleChecks = 0;
  // Twice idle in a row: a job that just finished may have queued another (an email).
  while (idleChecks < 2) {
    if (Date.now() > deadline) throw new Error(`jobs still due after ${TIMEOUT_MS} ms`);
    app.jobs.wake();
    idleChecks = (await app.jobs.dueCount()) === 0 ? idleChecks + 1 : 0;
    if (idleChecks < 2) await pause();
  }
}

/** Polls until `read` answers something truthy; fails the test with `what` after 15 s. */
export async function waitFor<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`waited ${TIMEOUT_MS} ms for ${what}`);
    await pause();
  }
}

/** The emails to `address`, newest first, once none is still waiting for its delivery job. */
export async function settledEmailsTo(db: Db, address: string) {
  const rowsOf = () =>
    db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, address))
      .orderBy(asc(emailOutbox.createdAt));
  const rows = await waitFor(`the emails to ${address} to be delivered`, async () => {
    const found = await rowsOf();
    return found.every((row) => row.status !== 'pending') ? found : undefined;
  });
  return rows.reverse();
}

/** The first email to `address` the delivery job is done with (sent, recorded or failed). */
export function waitForEmail(db: Db, address: string) {
  return waitFor(`an email to ${address}`, async () => {
    const [row] = await db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.toAddress, address), ne(emailOutbox.status, 'pending')))
      .orderBy(asc(emailOutbox.createdAt))
      .limit(1);
    return row;
  });
}
