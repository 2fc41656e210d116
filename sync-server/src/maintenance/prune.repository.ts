import { and, eq, inArray, isNotNull, lt, or, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
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
import type { Db } from '../db/open-database.ts';

/** Rows per statement: a first run over a long-grown table takes many short locks, not one long. */
const BATCH = 5_000;

/** Expired, or ended (used, revoked, accepted), before `before`: unusable since then. */
const endedBefore = (expiresAt: PgColumn, endedAt: PgColumn) => (before: Date) =>
  or(lt(expiresAt, before), and(isNotNull(endedAt), lt(endedAt, before)));

const createdBefore = (createdAt: PgColumn) => (before: Date) => lt(createdAt, before);

const emailsBefore = (statuses: Array<'sent' | 'failed' | 'recorded'>) => (before: Date) =>
  and(inArray(emailOutbox.status, statuses), lt(emailOutbox.createdAt, before));

type Rule = { table: PgTable; id: PgColumn; pastUse: (before: Date) => SQL | undefined };

/** What each pruning rule deletes; how long rows are kept is the caller's (retention.ts). */
const rules = {
  sessions: {
    table: sessions,
    id: sessions.id,
    pastUse: endedBefore(sessions.expiresAt, sessions.revokedAt),
  },
  // A rate limit row past forget_at counts as absent (decision 0020): nothing to keep.
  rateLimits: {
    table: rateLimits,
    id: rateLimits.key,
    pastUse: (before: Date) => lt(rateLimits.forgetAt, before),
  },
  resetTokens: {
    table: passwordResetTokens,
    id: passwordResetTokens.id,
    pastUse: endedBefore(passwordResetTokens.expiresAt, passwordResetTokens.usedAt),
  },
  invitations: {
    table: crmInvitations,
    id: crmInvitations.id,
    pastUse: endedBefore(crmInvitations.expiresAt, crmInvitations.acceptedAt),
  },
  // A team invitation ends by acceptance, refusal or cancellation, whichever came.
  teamInvitations: {
    table: teamInvitations,
    id: teamInvitations.id,
    pastUse: (before: Date) =>
      or(
        lt(teamInvitations.expiresAt, before),
        lt(teamInvitations.acceptedAt, before),
        lt(teamInvitations.declinedAt, before),
        lt(teamInvitations.cancelledAt, before),
      ),
  },
  kioskDevices: {
    table: kioskDevices,
    id: kioskDevices.id,
    pastUse: endedBefore(kioskDevices.expiresAt, kioskDevices.revokedAt),
  },
  auditRows: { table: auditLog, id: auditLog.id, pastUse: createdBefore(auditLog.createdAt) },
  sentNotices: {
    table: notificationOutbox,
    id: notificationOutbox.id,
    pastUse: createdBefore(notificationOutbox.createdAt),
  },
  deliveredEmails: {
    table: emailOutbox,
    id: emailOutbox.id,
    pastUse: emailsBefore(['sent', 'failed']),
  },
  mailbox: { table: emailOutbox, id: emailOutbox.id, pastUse: emailsBefore(['recorded']) },
} satisfies Record<string, Rule>;

export type PruneRule = keyof typeof rules;

/** Deletes the rule's rows past use before `before`, in batches; answers how many. */
export async function deleteRowsPastUse(db: Db, rule: PruneRule, before: Date): Promise<number> {
  const { table, id, pastUse } = rules[rule] as Rule;
  let total = 0;
  for (;;) {
    const batch = db.select({ id }).from(table).where(pastUse(before)).limit(BATCH);
    const deleted = await db.delete(table).where(inArray(id, batch)).returning({ id });
    total += deleted.length;
    if (deleted.length < BATCH) return total;
  }
}

/** A pending email whose delivery job is long gone: failed, and its body (live links) removed. */
export async function abandonStaleEmails(db: Db, before: Date): Promise<number> {
  const rows = await db
    .update(emailOutbox)
    .set({ status: 'failed', error: 'not delivered in time', textBody: null, htmlBody: null })
    .where(and(eq(emailOutbox.status, 'pending'), lt(emailOutbox.createdAt, before)))
    .returning({ id: emailOutbox.id });
  return rows.length;
}
