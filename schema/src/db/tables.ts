import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
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

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** Lower-cased; null for a child account without an email. */
  email: text('email').unique(),
  username: text('username').unique(),
  passwordHash: text('password_hash'),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  middleName: text('middle_name'),
  role: text('role', { enum: ['user', 'admin'] }).notNull().default('user'),
  attributes: jsonb('attributes')
    .$type<{ sidebarExpanded?: boolean; profileAvatarImageUrl?: string | null; lastProfile?: { orgId: string | null; view: 'org' | 'customer' } }>()
    .notNull()
    .default({}),
  googleSubject: text('google_subject').unique(),
  emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
  createdAt: createdAt(),
});

export const organizations = pgTable('organizations', {
  id: uuid('id').primaryKey().defaultRandom(),
  label: text('label').notNull(),
  platform: text('platform', { enum: ['zipper', 'jobber'] }).notNull().default('zipper'),
  companyLocation: text('company_location'),
  attributes: jsonb('attributes')
    .$type<{ logoUrl?: string; coachingBusinessName?: string; timezone?: string }>()
    .notNull()
    .default({}),
  createdAt: createdAt(),
});

export const memberships = pgTable(
  'memberships',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['staff', 'customer'] }).notNull(),
    claims: text('claims').array().notNull().default(sql`'{}'::text[]`),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('memberships_org_user_kind').on(t.orgId, t.userId, t.kind), index('memberships_user').on(t.userId)],
);

export const guardianLinks = pgTable(
  'guardian_links',
  {
    guardianUserId: uuid('guardian_user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    childUserId: uuid('child_user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    /** The organisation whose staff made the link; null when the family made it. */
    orgId: uuid('org_id').references(() => organizations.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.guardianUserId, t.childUserId] }), index('guardian_links_child').on(t.childUserId)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The account the session acts as. */
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    /** The guardian a child session may return to (spec §6 Return to parent account). */
    returnToUserId: uuid('return_to_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The platform admin behind an impersonation, for the audit trail. */
    impersonatorUserId: uuid('impersonator_user_id').references(() => users.id, { onDelete: 'set null' }),
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
  userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
});

export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').references(() => organizations.id, { onDelete: 'set null' }),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    status: text('status', { enum: ['pending', 'sent', 'failed', 'recorded'] }).notNull().default('pending'),
    error: text('error'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('email_outbox_created').on(t.createdAt)],
);

/** Failed and successful log-ins, for rate limits shared by every server process. */
export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    identifier: text('identifier').notNull(),
    ip: text('ip').notNull(),
    succeeded: boolean('succeeded').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('login_attempts_identifier').on(t.identifier, t.createdAt), index('login_attempts_ip').on(t.ip, t.createdAt)],
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
  (t) => [index('audit_log_actor').on(t.actorUserId, t.createdAt)],
);

export const tables = {
  users,
  organizations,
  memberships,
  guardianLinks,
  sessions,
  passwordResetTokens,
  emailOutbox,
  loginAttempts,
  auditLog,
};
