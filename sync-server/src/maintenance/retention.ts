const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * How long each kind of row outlives its use (decision 0016). The hourly prune job deletes
 * what is older; audit rows follow AUDIT_RETENTION_DAYS instead.
 */
export const retention = {
  /** After a session expired or was revoked: support can still see a recent sign-out. */
  endedSessionsMs: 30 * DAY_MS,
  /** Rate limit rows say themselves when they stop counting (forget_at): gone at once after. */
  forgottenRateLimitsMs: 0,
  /** After a reset or set-password link was used or expired (only hashes are stored). */
  usedResetTokensMs: DAY_MS,
  /** After an invitation (a customer's or a team one) was answered, cancelled or expired. */
  endedInvitationsMs: 30 * DAY_MS,
  /** After a kiosk was left, revoked or expired. */
  endedKiosksMs: 30 * DAY_MS,
  /** Sent or failed emails: recipient, subject, status and error only (the body went at once). */
  deliveredEmailsMs: 30 * DAY_MS,
  /** The development outbox keeps bodies (links included) for its mailbox page this long. */
  mailboxMs: 7 * DAY_MS,
  /** An email still pending this long lost its job: failed, and its body removed. */
  undeliveredEmailMs: 2 * DAY_MS,
  /** Recorded push notices and their outcomes. */
  sentNoticesMs: 30 * DAY_MS,
} as const;

export const auditRetentionMs = (days: number) => days * DAY_MS;
