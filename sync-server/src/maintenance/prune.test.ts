import { randomUUID } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  crmInvitations,
  emailOutbox,
  kioskDevices,
  notificationOutbox,
  passwordResetTokens,
  rateLimits,
  sessions,
  teamInvitations,
} from '@platform/schema/db';
import { insertTestOrg, insertTestUser } from '../testing/auth-fixtures.ts';
import { drainJobs } from '../testing/job-fixtures.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { retention } from './retention.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(Date.now() - ms);
const ahead = (ms: number) => new Date(Date.now() + ms);
const token = () => randomUUID();

describe.each(testDatabaseKinds)('the prune job on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let userId: string;
  let orgId: string;
  beforeAll(async () => {
    t = await createTestApp(kind, { env: { AUDIT_RETENTION_DAYS: '30' } });
    userId = (await insertTestUser(t.db)).id;
    orgId = (await insertTestOrg(t.db)).id;
  });
  afterAll(() => t.close());

  /** Runs the job as the schedule does: queued, then taken by a worker. */
  const prune = async () => {
    await t.app.jobs.enqueue('prune', {});
    await drainJobs(t.app);
  };

  /** Inserts labelled rows, prunes, and answers the labels still there. */
  async function survivors<Row extends Record<string, unknown>>(
    table: PgTable,
    id: PgColumn,
    rows: Record<string, Row>,
  ): Promise<string[]> {
    const ids = new Map<unknown, string>();
    for (const [label, values] of Object.entries(rows)) {
      const [inserted] = (await t.db.insert(table).values(values).returning({ id })) as Array<{
        id: unknown;
      }>;
      ids.set(inserted!.id, label);
    }
    await prune();
    const left = (await t.db
      .select({ id })
      .from(table)
      .where(inArray(id, [...ids.keys()]))) as Array<{ id: unknown }>;
    return left.map((row) => ids.get(row.id)!).sort();
  }

  it('is scheduled hourly through the queue', async () => {
    const { rows } = await t.app.database.executeSql(
      `select name, cron, timezone from pgboss.schedule where name = 'prune'`,
    );
    expect(rows).toEqual([{ name: 'prune', cron: '7 * * * *', timezone: 'UTC' }]);
  });

  it('deletes rate limit rows once they count as absent (past forget_at), and only those', async () => {
    const limit = (forgetAt: Date) => ({
      key: `test:${token()}`,
      failures: 3,
      freeAt: ago(HOUR),
      forgetAt,
    });
    expect(
      await survivors(rateLimits, rateLimits.key, {
        forgotten: limit(ago(60_000)),
        counting: limit(ahead(10 * 60_000)),
      }),
    ).toEqual(['counting']);
  });

  // Rows that end by expiring or by being used up: gone a grace period after either.
  const endingRows = [
    {
      what: 'sessions expired or revoked',
      table: sessions,
      id: sessions.id,
      grace: retention.endedSessionsMs,
      row: (expiresAt: Date, endedAt: Date | null) => ({
        userId,
        view: 'org' as const,
        refreshTokenHash: token(),
        expiresAt,
        revokedAt: endedAt,
      }),
    },
    {
      what: 'reset links used or expired',
      table: passwordResetTokens,
      id: passwordResetTokens.id,
      grace: retention.usedResetTokensMs,
      row: (expiresAt: Date, endedAt: Date | null) => ({
        userId,
        tokenHash: token(),
        expiresAt,
        usedAt: endedAt,
      }),
    },
    {
      what: 'invitations accepted or expired',
      table: crmInvitations,
      id: crmInvitations.id,
      grace: retention.endedInvitationsMs,
      row: (expiresAt: Date, endedAt: Date | null) => ({
        orgId,
        userId,
        tokenHash: token(),
        expiresAt,
        acceptedAt: endedAt,
      }),
    },
    {
      what: 'team invitations cancelled or expired',
      table: teamInvitations,
      id: teamInvitations.id,
      grace: retention.endedInvitationsMs,
      row: (expiresAt: Date, endedAt: Date | null) => ({
        orgId,
        email: `${token()}@example.test`,
        claims: ['view-customers'],
        tokenHash: token(),
        expiresAt,
        cancelledAt: endedAt,
      }),
    },
    {
      what: 'kiosks left, revoked or expired',
      table: kioskDevices,
      id: kioskDevices.id,
      grace: retention.endedKiosksMs,
      row: (expiresAt: Date, endedAt: Date | null) => ({
        orgId,
        startedByUserId: userId,
        tokenHash: token(),
        expiresAt,
        revokedAt: endedAt,
      }),
    },
  ];
  it.each(endingRows)('deletes $what longer ago than its grace period', async (rule) => {
    const past = rule.grace + HOUR;
    const recent = Math.min(rule.grace / 2, HOUR);
    expect(
      await survivors(rule.table, rule.id, {
        expiredLongAgo: rule.row(ago(past), null),
        endedLongAgo: rule.row(ahead(DAY), ago(past)),
        expiredRecently: rule.row(ago(recent), null),
        endedRecently: rule.row(ahead(DAY), ago(recent)),
        live: rule.row(ahead(DAY), null),
      }),
    ).toEqual(['endedRecently', 'expiredRecently', 'live']);
  });

  it('deletes audit rows past AUDIT_RETENTION_DAYS (30 here)', async () => {
    const audit = (createdAt: Date) => ({ action: 'test.prune', createdAt });
    expect(
      await survivors(auditLog, auditLog.id, {
        pastRetention: audit(ago(31 * DAY)),
        withinRetention: audit(ago(29 * DAY)),
      }),
    ).toEqual(['withinRetention']);
  });

  it('deletes recorded push notices past their retention', async () => {
    const notice = (createdAt: Date) => ({
      title: 't',
      body: 'b',
      adapter: 'outbox',
      status: 'recorded' as const,
      createdAt,
    });
    expect(
      await survivors(notificationOutbox, notificationOutbox.id, {
        old: notice(ago(retention.sentNoticesMs + DAY)),
        recent: notice(ago(DAY)),
      }),
    ).toEqual(['recent']);
  });

  it('deletes delivered emails and old mailbox entries, and strips the body of an email never delivered', async () => {
    const email = (status: 'pending' | 'sent' | 'failed' | 'recorded', createdAt: Date) => ({
      toAddress: 'someone@example.test',
      subject: 's',
      textBody: status === 'pending' || status === 'recorded' ? 'link: token=secret' : null,
      status,
      createdAt,
    });
    const labels = await survivors(emailOutbox, emailOutbox.id, {
      sentLongAgo: email('sent', ago(retention.deliveredEmailsMs + DAY)),
      failedLongAgo: email('failed', ago(retention.deliveredEmailsMs + DAY)),
      sentYesterday: email('sent', ago(DAY)),
      mailboxOld: email('recorded', ago(retention.mailboxMs + DAY)),
      mailboxRecent: email('recorded', ago(DAY)),
      stuckPending: email('pending', ago(retention.undeliveredEmailMs + HOUR)),
    });
    expect(labels).toEqual(['mailboxRecent', 'sentYesterday', 'stuckPending']);
    const stuck = await t.db
      .select()
      .from(emailOutbox)
      .where(inArray(emailOutbox.status, ['failed']));
    expect(stuck).toEqual([
      expect.objectContaining({
        status: 'failed',
        textBody: null,
        htmlBody: null,
        error: 'not delivered in time',
      }),
    ]);
  });
});
