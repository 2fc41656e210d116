import type { Db } from '../db/open-database.ts';
import { pruneExpiredArchives } from '../exports/exports.service.ts';
import { pruneImportChunks } from '../imports/imports.service.ts';
import { abandonStaleEmails, deleteRowsPastUse, type PruneRule } from './prune.repository.ts';
import { auditRetentionMs, retention } from './retention.ts';

/**
 * The prune job (hourly, decision 0016): removes what would otherwise grow for ever. Each rule
 * runs as its own short statements, never one long transaction over every table; the job logs
 * the counts. A failure is retried by the queue, and every rule is safe to run again.
 */
export async function pruneExpiredData(
  db: Db,
  settings: { auditRetentionDays: number },
  now = Date.now(),
): Promise<Record<string, number>> {
  const keptFor: Record<PruneRule, number> = {
    sessions: retention.endedSessionsMs,
    rateLimits: retention.forgottenRateLimitsMs,
    resetTokens: retention.usedResetTokensMs,
    invitations: retention.endedInvitationsMs,
    teamInvitations: retention.endedInvitationsMs,
    kioskDevices: retention.endedKiosksMs,
    auditRows: auditRetentionMs(settings.auditRetentionDays),
    sentNotices: retention.sentNoticesMs,
    deliveredEmails: retention.deliveredEmailsMs,
    mailbox: retention.mailboxMs,
  };
  const counts: Record<string, number> = {
    undeliveredEmails: await abandonStaleEmails(db, new Date(now - retention.undeliveredEmailMs)),
    importChunks: await pruneImportChunks(db, now),
    exportArchives: await pruneExpiredArchives(db, now),
  };
  for (const [rule, ms] of Object.entries(keptFor) as Array<[PruneRule, number]>)
    counts[rule] = await deleteRowsPastUse(db, rule, new Date(now - ms));
  return counts;
}
