import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigserial,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

// Users, their families and their sessions are platform-level: one person exists once across
// organisations (a parent may be a customer of two gyms). Everything that belongs to an
// organisation carries org_id, and every query of it filters by org_id (DESIGN.md Tenancy).

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Lower-cased; null for a child account without an email. */
    email: text('email').unique(),
    username: text('username').unique(),
    passwordHash: text('password_hash'),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    middleName: text('middle_name'),
    role: text('role', { enum: ['user', 'admin'] })
      .notNull()
      .default('user'),
    attributes: jsonb('attributes')
      .$type<{
        sidebarExpanded?: boolean;
        profileAvatarImageUrl?: string | null;
        lastProfile?: { orgId: string | null; view: 'org' | 'customer' };
        /** Which notices the person wants pushed to their devices (settings page). */
        notificationPreferences?: { bookings: boolean; payments: boolean; announcements: boolean };
      }>()
      .notNull()
      .default({}),
    googleSubject: text('google_subject').unique(),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /**
     * When the owner of the account first proved it is theirs (signed up, set a password through
     * an emailed link, accepted an invitation, signed in with Google). Null for an account someone
     * else made that nobody has claimed yet; always null for a child account without an email,
     * which stays its family's (decision 0035).
     */
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    /** The organisation whose staff made this account (they act for it until it is claimed). */
    /** Issue 14: a child's date of birth, when the family or staff gave it. */
    dateOfBirth: date('date_of_birth', { mode: 'string' }),
    createdByOrgId: uuid('created_by_org_id').references((): AnyPgColumn => organizations.id, {
      onDelete: 'set null',
    }),
    /** The person who made this account for someone else (a guardian adding a child). */
    createdByUserId: uuid('created_by_user_id').references((): AnyPgColumn => users.id, {
      onDelete: 'set null',
    }),
    createdAt: createdAt(),
  },
  (t) => [
    // The CSV import finds accounts by address whatever its letter case (decision 0071).
    index('users_email_lower').on(sql`lower(${t.email})`),
  ],
);

export const organizations = pgTable('organizations', {
  id: uuid('id').primaryKey().defaultRandom(),
  label: text('label').notNull(),
  platform: text('platform', { enum: ['zipper', 'jobber'] })
    .notNull()
    .default('zipper'),
  companyLocation: text('company_location'),
  attributes: jsonb('attributes')
    .$type<{
      logoUrl?: string;
      coachingBusinessName?: string;
      timezone?: string;
      /** The organisation's own waiver of liability (issue 14); absent: the platform's. */
      waiverOfLiability?: string;
      /** Issue 16: customers cancel until this many hours before a class (default 2). */
      bookingCancelCutoffHours?: number;
    }>()
    .notNull()
    .default({}),
  createdAt: createdAt(),
});

export const memberships = pgTable(
  'memberships',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['staff', 'customer'] }).notNull(),
    claims: text('claims')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('memberships_org_user_kind').on(t.orgId, t.userId, t.kind),
    index('memberships_user').on(t.userId),
  ],
);

export const guardianLinks = pgTable(
  'guardian_links',
  {
    guardianUserId: uuid('guardian_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    childUserId: uuid('child_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The organisation whose staff made the link; null when the family made it. */
    orgId: uuid('org_id').references(() => organizations.id, { onDelete: 'set null' }),
    /** Who made the link (shown to the child's owner when they confirm it). */
    createdByUserId: uuid('created_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    /**
     * A link gives the guardian power over the child only once confirmed: by the child's owner,
     * or — for a child without an email — by whoever acts for the child (decision 0035).
     */
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    confirmedByUserId: uuid('confirmed_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    /**
     * The names typed for a person who already had an account, so adding an address reveals
     * nothing about its owner (decision 0035). `requestedNameOf` says whose they are: the
     * child's (typed by the guardian in create-children; shown to the guardian until the child
     * confirms) or the guardian's (typed in add-guardian; the guardian's own names are never
     * shown on the child's side).
     */
    requestedFirstName: text('requested_first_name'),
    requestedLastName: text('requested_last_name'),
    requestedNameOf: text('requested_name_of', { enum: ['guardian', 'child'] }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.guardianUserId, t.childUserId] }),
    index('guardian_links_child').on(t.childUserId),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The account the session acts as. */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /**
     * The person at the keyboard of a switched session (the guardian or admin who switched
     * first), kept through every hop; a return lands only on their own session (decision 0035).
     */
    returnToUserId: uuid('return_to_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The platform admin behind an impersonation, for the audit trail. */
    impersonatorUserId: uuid('impersonator_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    view: text('view', { enum: ['org', 'customer'] }).notNull(),
    orgId: uuid('org_id').references(() => organizations.id, { onDelete: 'set null' }),
    refreshTokenHash: text('refresh_token_hash').notNull(),
    previousRefreshTokenHash: text('previous_refresh_token_hash'),
    refreshedAt: timestamp('refreshed_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('sessions_refresh').on(t.refreshTokenHash),
    index('sessions_previous_refresh').on(t.previousRefreshTokenHash),
    index('sessions_user').on(t.userId),
  ],
);

export const passwordResetTokens = pgTable('password_reset_tokens', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/**
 * Every email, from the moment it is queued (decision 0015). The bodies hold live links
 * (reset, set-password, invitation), so they are kept only until the delivery job is done with
 * them: once sent or failed for good only recipient, subject, status, times and error remain.
 * The development outbox adapter keeps its bodies (that is its purpose) until they are pruned.
 */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').references(() => organizations.id, { onDelete: 'set null' }),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body'),
    htmlBody: text('html_body'),
    status: text('status', { enum: ['pending', 'sent', 'failed', 'recorded'] })
      .notNull()
      .default('pending'),
    error: text('error'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('email_outbox_created').on(t.createdAt)],
);

/**
 * Rate limits shared by every server process (decision 0020): one row per key,
 * '<rule>:<subject>'. A rate keeps GCRA's one timestamp in free_at (when its whole budget is
 * back); a backoff keeps its run of failures and, in free_at, when the next attempt may run.
 * A row past forget_at counts as absent, and is pruned.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    failures: integer('failures').notNull().default(0),
    freeAt: timestamp('free_at', { withTimezone: true }).notNull(),
    forgetAt: timestamp('forget_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limits_forget_at').on(t.forgetAt)],
);

/** Who acted as whom, and when (switch accounts, impersonation). */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orgId: uuid('org_id').references(() => organizations.id, { onDelete: 'set null' }),
    actorUserId: uuid('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    subjectUserId: uuid('subject_user_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_actor').on(t.actorUserId, t.createdAt),
    // Pruning past AUDIT_RETENTION_DAYS deletes by age alone (decision 0016).
    index('audit_log_created').on(t.createdAt),
  ],
);

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/** An organisation's uploaded logo, resized to the icons a web app manifest needs. */
export const orgLogos = pgTable('org_logos', {
  orgId: uuid('org_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  /** A hash of the source image: part of every icon URL, so caches never serve an old logo. */
  version: text('version').notNull(),
  /** The image as uploaded, kept to redraw the maskable icon when the background changes. */
  source: bytea('source').notNull(),
  icon192: bytea('icon_192').notNull(),
  icon512: bytea('icon_512').notNull(),
  maskable512: bytea('maskable_512').notNull(),
  createdAt: createdAt(),
});

/**
 * A device that may receive push notifications: an FCM registration token or a Web Push
 * endpoint (with its keys), per user and device. Bound to the session that registered it, so
 * signing out removes it.
 */
export const notificationTokens = pgTable(
  'notification_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionId: uuid('session_id').references(() => sessions.id, { onDelete: 'cascade' }),
    deviceId: text('device_id').notNull(),
    kind: text('kind', { enum: ['fcm', 'webpush'] }).notNull(),
    /** The FCM registration token, or the Web Push endpoint URL. */
    token: text('token').notNull(),
    /** Web Push only: the subscription's p256dh and auth keys. */
    keys: jsonb('keys').$type<{ p256dh: string; auth: string }>(),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('notification_tokens_user_device').on(t.userId, t.deviceId),
    index('notification_tokens_token').on(t.token),
  ],
);

/** Every notice the Notifier was asked to send, with its outcome (and the whole record for the outbox adapter). */
export const notificationOutbox = pgTable(
  'notification_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orgId: uuid('org_id').references(() => organizations.id, { onDelete: 'set null' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** The route the notification opens on click. */
    url: text('url'),
    adapter: text('adapter').notNull(),
    deviceCount: integer('device_count').notNull().default(0),
    status: text('status', {
      enum: ['recorded', 'sent', 'partial', 'failed', 'no-devices'],
    }).notNull(),
    error: text('error'),
    createdAt: createdAt(),
  },
  (t) => [index('notification_outbox_created').on(t.createdAt)],
);

/**
 * A device turned into the organisation's front-desk time clock (issue 6 kiosk mode). It holds
 * a kiosk credential, not a staff session: a random token in an httpOnly cookie, stored here as
 * a SHA-256 hash, good only while the staff member who started it may still start kiosks.
 */
export const kioskDevices = pgTable(
  'kiosk_devices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Whose password leaves kiosk mode. */
    startedByUserId: uuid('started_by_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    userAgent: text('user_agent'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('kiosk_devices_org').on(t.orgId)],
);

/**
 * A person's kiosk PIN: an argon2id hash the server checks, and a PBKDF2 verifier (with its
 * salt) that kiosks of the person's organisations keep to check it offline (decision 0011).
 */
export const kioskPins = pgTable('kiosk_pins', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  pinHash: text('pin_hash').notNull(),
  verifierSalt: text('verifier_salt').notNull(),
  verifierIterations: integer('verifier_iterations').notNull(),
  verifier: text('verifier').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

// CRM (issue 7, decision 0012): what staff keep about a customer of their organisation.
export const customerMetrics = pgTable(
  'customer_metrics',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    authorName: text('author_name').notNull(),
    name: text('name').notNull(),
    value: text('value').notNull(),
    measuredOn: date('measured_on', { mode: 'string' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('customer_metrics_person').on(t.orgId, t.userId, t.measuredOn)],
);

/**
 * An invitation to claim an account staff created (decision 0012). Only the token's SHA-256 is
 * kept; signup with the token sets the password of the password-less account it names.
 */
export const crmInvitations = pgTable(
  'crm_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    /** The person said no (they stay off the customer list). */
    declinedAt: timestamp('declined_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('crm_invitations_person').on(t.userId)],
);

/**
 * An invitation to join an organisation's staff (issue 14, decision 0052). Only the emailed
 * token's SHA-256 is kept; the token alone opens it (an address match never does: signup does
 * not prove an address), once, before it expires. At most one is open per address and
 * organisation (a resend gives it a new token).
 */
export const teamInvitations = pgTable(
  'team_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Lower-cased. */
    email: text('email').notNull(),
    claims: text('claims').array().notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    tokenHash: text('token_hash').notNull().unique(),
    /** When the current token was emailed (a resend replaces the token). */
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedByUserId: uuid('accepted_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    declinedAt: timestamp('declined_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('team_invitations_open')
      .on(t.orgId, t.email)
      .where(sql`${t.acceptedAt} is null and ${t.declinedAt} is null and ${t.cancelledAt} is null`),
  ],
);

export const tables = {
  users,
  organizations,
  memberships,
  guardianLinks,
  sessions,
  passwordResetTokens,
  emailOutbox,
  rateLimits,
  auditLog,
  orgLogos,
  notificationTokens,
  notificationOutbox,
  kioskDevices,
  kioskPins,
  customerMetrics,
  crmInvitations,
  teamInvitations,
};
