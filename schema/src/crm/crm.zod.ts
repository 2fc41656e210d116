import { z } from 'zod';
import { PERSON_NAME_MAX } from '../app/constants.ts';
import { isoTimeSchema, storedIsoTimeSchema } from '../sync/iso-time.ts';
import type { CountryCode } from 'libphonenumber-js';
import { DEFAULT_ORG_COUNTRY } from '../organizations/org-region.rules.ts';
import { crmMessages, inviteMessages } from './crm.messages.ts';
import { phoneFieldSchema } from './phone.rules.ts';
import { customerTagSchema, TAGS_PER_CUSTOMER_MAX } from './customer-tag.zod.ts';
import { normaliseTags } from './tags.rules.ts';

/*
 * The CRM wire contract (issue 7, spec §2 Organisation dashboard CRM, §3 Invite request /
 * Roster item, §5 Invite rules). Every path acts on the session's organisation (org view,
 * claim view-customers); an id of another organisation answers 404, never its data.
 *
 *   GET  /api/crm/customers?q=&tag=&sort=&dir=&cursor=&limit=  → rosterSearchResponseSchema
 *   POST /api/crm/customers        body addCustomerRequestSchema → addCustomerResponseSchema (201)
 *   GET  /api/crm/customers/:rosterId                          → customerProfileSchema
 *   PUT  /api/crm/customers/:rosterId/tags   body setTagsRequestSchema → customerProfileSchema
 *   POST /api/crm/customers/:rosterId/notes  body addNoteRequestSchema → customerNoteSchema (201)
 *   POST /api/crm/customers/:rosterId/metrics body addMetricRequestSchema → customerMetricSchema (201)
 *   GET  /api/crm/redirect?rosterId=… | ?userId=…               → crmRedirectResponseSchema
 *   GET  /api/crm/tags                                         → crmTagsResponseSchema
 *
 * Errors: 400 `{ message, errors: [{ field, message }] }` (field = request field name);
 * 401 no session; 403 staff without view-customers; 404 not found / other organisation.
 * A 5xx of add customer is shown as inviteMessages.creationFailed (spec §8).
 *
 * Invitation acceptance (decision 0012): the email links to
 *   /auth/signup?orgId=<orgId>&email=<email>&invitation=<token>
 * and signup (POST /api/auth/create-account, action signup) accepts `invitation` in signupDto:
 * it claims the password-less invited account instead of answering "email taken".
 */

export const ROSTER_PAGE_SIZE_MAX = 100;
export const ROSTER_PAGE_SIZE_DEFAULT = 50;

export const rosterSortFieldSchema = z.enum(['lastName', 'firstName', 'email', 'createdAt']);
export type RosterSortField = z.infer<typeof rosterSortFieldSchema>;
export const sortDirectionSchema = z.enum(['asc', 'desc']);

/** GET /api/crm/customers query string. `cursor` is opaque: pass back `nextCursor`. */
export const rosterSearchQuerySchema = z.object({
  /** Typo-tolerant prefix search over first/last name, email and phone. */
  q: z.string().trim().max(200).optional().default(''),
  /** Only customers carrying this tag. */
  tag: z.string().trim().min(1).max(60).optional(),
  sort: rosterSortFieldSchema.optional().default('lastName'),
  dir: sortDirectionSchema.optional().default('asc'),
  cursor: z.string().max(1000).optional(),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(ROSTER_PAGE_SIZE_MAX)
    .optional()
    .default(ROSTER_PAGE_SIZE_DEFAULT),
});
export type RosterSearchQuery = z.input<typeof rosterSearchQuerySchema>;

export const rosterRowSchema = z.object({
  rosterId: z.string(),
  userId: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  tags: z.array(z.string()),
});
export type RosterRow = z.infer<typeof rosterRowSchema>;

/**
 * With `q` empty, rows come in `sort`/`dir` order with keyset paging (`nextCursor`, null on
 * the last page). With `q`, rows containing every term come first — words starting with it
 * first, then sort/dir — and `nextCursor` pages through them; when none does, one page of
 * typo matches (best first) comes instead, with `nextCursor` null. `hasMore` = nextCursor !== null;
 * `total` is the number of matches, counted up to TOTAL_COUNT_CAP (`totalCapped` when more).
 */
export const rosterSearchResponseSchema = z.object({
  rows: z.array(rosterRowSchema),
  nextCursor: z.string().nullable(),
  hasMore: z.boolean(),
  total: z.number().int(),
  totalCapped: z.boolean(),
});
export type RosterSearchResponse = z.infer<typeof rosterSearchResponseSchema>;
export const TOTAL_COUNT_CAP = 1_000;

const trimmed = z.string().trim();
const nameTooLong = `Names must be at most ${PERSON_NAME_MAX} characters.`;

/**
 * spec §3 Invite request (the customer part; product, price, startDate and coupon come with
 * the products-and-payments issue), §5 Invite rules: names required only with externalPayments.
 * The phone is read as a number of the organisation's country (phone.rules.ts): the browser
 * and the server build this schema with the same country, so they agree on every number.
 */
export function addCustomerRequestSchemaFor(country: CountryCode) {
  return z
    .object({
      customerEmail: trimmed.pipe(z.email(inviteMessages.invalidEmail)),
      customerPhone: phoneFieldSchema(country).optional().default(''),
      customerFirstName: trimmed.max(PERSON_NAME_MAX, nameTooLong).optional().default(''),
      customerLastName: trimmed.max(PERSON_NAME_MAX, nameTooLong).optional().default(''),
      externalPayments: z.boolean().optional().default(false),
      /** spec §9: 'Send invite emails' defaults on. */
      sendInviteEmails: z.boolean().optional().default(true),
    })
    .superRefine((value, ctx) => {
      if (!value.externalPayments) return;
      if (!value.customerFirstName)
        ctx.addIssue({
          code: 'custom',
          path: ['customerFirstName'],
          message: inviteMessages.firstNameRequired,
        });
      if (!value.customerLastName)
        ctx.addIssue({
          code: 'custom',
          path: ['customerLastName'],
          message: inviteMessages.lastNameRequired,
        });
    });
}
/** The request of an organisation in the default country (types, route fuzzing). */
export const addCustomerRequestSchema = addCustomerRequestSchemaFor(DEFAULT_ORG_COUNTRY);
export type AddCustomerRequest = z.input<typeof addCustomerRequestSchema>;
export type AddCustomerInput = z.output<typeof addCustomerRequestSchema>;

/** spec §3 Roster (CRM) item: the created (or linked) customer's roster item. */
export const addCustomerResponseSchema = z.object({
  id: z.string(),
  athlete: z.object({
    id: z.uuid(),
    fullName: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string().nullable(),
  }),
  /** spec §3 Invite: invitedPerson. */
  invitedPerson: z.object({ email: z.string(), firstName: z.string(), lastName: z.string() }),
  /**
   * Whether the invitation email left. The answer never says whether the address already had
   * an account: either way the person is on the list as invited until they accept (decision 0035).
   */
  inviteSent: z.boolean(),
});
export type AddCustomerResponse = z.infer<typeof addCustomerResponseSchema>;

/** 409 from add customer: the address is on this organisation's list already (issue 14). */
export const alreadyCustomerResponseSchema = z.object({
  error: z.literal('AlreadyCustomer'),
  message: z.string(),
  details: z.object({ rosterId: z.string(), invitationPending: z.boolean() }),
});

/** GET /api/invitations: organisations waiting for the signed-in person's answer. */
export const pendingInvitationSchema = z.object({
  id: z.uuid(),
  orgId: z.uuid(),
  orgLabel: z.string(),
  createdAt: isoTimeSchema,
});
export type PendingInvitation = z.infer<typeof pendingInvitationSchema>;
export const pendingInvitationsResponseSchema = z.array(pendingInvitationSchema);

export const customerNoteSchema = z.object({
  id: z.uuid(),
  body: z.string(),
  authorId: z.uuid().nullable(),
  authorName: z.string(),
  // Dated by the device that wrote it (decision 0013), possibly before TIME_RANGE existed.
  createdAt: storedIsoTimeSchema,
});
export type CustomerNote = z.infer<typeof customerNoteSchema>;

export const customerMetricSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  value: z.string(),
  /** The day it was measured, YYYY-MM-DD. */
  measuredOn: z.iso.date(),
  authorName: z.string(),
  createdAt: isoTimeSchema,
});
export type CustomerMetric = z.infer<typeof customerMetricSchema>;

const personSchema = z.object({
  id: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  /** Issue 14: a child's date of birth, for the age staff see; absent for others. */
  dateOfBirth: z.iso.date().nullable().optional(),
});

export const activityEntrySchema = z.object({
  kind: z.enum(['joined', 'invited', 'note', 'metric']),
  at: storedIsoTimeSchema,
  text: z.string(),
});

/** GET /api/crm/customers/:rosterId */
export const customerProfileSchema = z.object({
  rosterId: z.string(),
  contact: personSchema.extend({ phone: z.string().nullable() }),
  /** Invited and not accepted yet (decision 0035): an account staff made, or an address that had one. */
  invitationPending: z.boolean(),
  /**
   * Staff may add or remove this person's guardians and children: an account their organisation
   * made that nobody has claimed yet (decision 0035). Otherwise the person manages their own.
   */
  familyManagedByStaff: z.boolean(),
  /**
   * spec §6: added with external payments — the person pays outside the platform; a record
   * where staff keep notes and metrics (no product invitations through the platform).
   */
  externalPayments: z.boolean(),
  guardians: z.array(personSchema),
  children: z.array(personSchema),
  tags: z.array(z.string()),
  notes: z.array(customerNoteSchema),
  metrics: z.array(customerMetricSchema),
  /** Newest first. */
  activity: z.array(activityEntrySchema),
});
export type CustomerProfile = z.infer<typeof customerProfileSchema>;

/** Tags compare case-insensitively; the list comes out without repeats (tags.rules.ts). */
export const setTagsRequestSchema = z.object({
  tags: z
    .array(trimmed.pipe(customerTagSchema))
    .max(TAGS_PER_CUSTOMER_MAX)
    .transform(normaliseTags),
});
export const addNoteRequestSchema = z.object({
  body: trimmed.min(1, crmMessages.noteRequired).max(5000),
});
export const addMetricRequestSchema = z.object({
  name: trimmed.min(1).max(100),
  value: trimmed.min(1).max(200),
  measuredOn: z.iso.date(),
});

/** GET /api/crm/redirect: exactly one of rosterId or userId. */
export const crmRedirectQuerySchema = z.union([
  z.object({ rosterId: z.string().min(1).max(100) }),
  z.object({ userId: z.uuid() }),
]);
export const crmRedirectResponseSchema = z.object({ rosterId: z.string() });

/** GET /api/crm/tags: the organisation's tags, for the filter. */
export const crmTagsResponseSchema = z.object({ tags: z.array(z.string()) });
