import { z } from 'zod';
import {
  atMostOneNewCard,
  newCardFields,
  newCardMessages,
  paymentMethodSchema,
  totaledInvoiceSchema,
} from './charge.zod.ts';
import { productSchema } from './catalogue.zod.ts';
import { isDayKey } from '../time-tracking/org-calendar.ts';
import { MAX_AMOUNT_MINOR } from './money.ts';
import { processorKindSchema } from './processor.zod.ts';

/**
 * Invitations to products (spec §2 Invite-to-product, §3 Invite request and action types, §5
 * Invite rules, §7 POST /api/package-invite; issue 15). Amounts are integer minor units.
 */

export const inviteActionTypes = [
  'start-stripe-subscription',
  'create-customer-subscription-invite',
  'start-customer-subscription-for-external-payment',
] as const;
export type InviteActionType = (typeof inviteActionTypes)[number];

/** How long an emailed invitation to a product can be accepted. */
export const PRODUCT_INVITE_DAYS = 14;

export const packageInviteMessages = {
  // spec §5, to the letter
  stripeOnly: 'Invites can only be sent for products managed via Stripe',
  priceRequired: 'A price must be set for this product',
  noEmail:
    'This customer has no email address to send the invitation to. Charge them at the desk instead.',
  cardOnFileMissing: 'This customer has no card on file to start the subscription with.',
  externalNoCard:
    'This customer pays outside the platform: the subscription is recorded, no card is charged.',
  notPending: 'This invitation is no longer open.',
  expired: 'This invitation has expired. Ask for a new one.',
  endPassed:
    'The subscription this invitation offers has reached its agreed end. Ask for a new one.',
  notYours: 'This invitation is for another account.',
  sent: (email: string) => `Invitation sent to ${email}.`,
} as const;

const dayOrNull = z
  .string()
  .nullable()
  .transform((day) => (day === '' ? null : day))
  .refine((day) => day === null || isDayKey(day), 'Invalid date format');

/** The product part of the Add customer dialog, sent once the customer exists. */
export const sendPackageInviteSchema = z.object({
  action: z.literal('send-package-invite'),
  rosterId: z.uuid(),
  productId: z.uuid(),
  priceMinor: z.number().int().min(0).max(MAX_AMOUNT_MINOR).nullable().default(null),
  startDate: dayOrNull.default(null),
  couponId: z.uuid().nullable().default(null),
  /** start-stripe-subscription: start now with this card of the customer's, instead of emailing. */
  paymentMethodId: z.uuid().nullable().default(null),
});
export type SendPackageInvite = z.input<typeof sendPackageInviteSchema>;

export const packageInviteRequestSchema = z.discriminatedUnion('action', [
  sendPackageInviteSchema,
  z.object({
    action: z.literal('get-pending-invites'),
    rosterId: z.uuid().nullable().default(null),
  }),
  z.object({ action: z.literal('cancel-package-invite'), inviteId: z.uuid() }),
  // The customer's side: read the invitation, then pay it.
  z.object({ action: z.literal('get-package-invite'), inviteId: z.uuid() }),
  z
    .object({
      action: z.literal('accept-package-invite'),
      inviteId: z.uuid(),
      /** A card of the customer's already kept, or a new one (typed, or Stripe's: 0063). */
      paymentMethodId: z.uuid().nullable().default(null),
      ...newCardFields,
    })
    .refine(atMostOneNewCard, newCardMessages.oneCard),
]);
export type PackageInviteRequest = z.input<typeof packageInviteRequestSchema>;

export const pendingInviteSchema = z.object({
  id: z.uuid(),
  rosterId: z.uuid().nullable(),
  customerName: z.string(),
  productName: z.string(),
  priceMinor: z.number().int(),
  startDate: z.string().nullable(),
  couponName: z.string().nullable(),
  action: z.enum(inviteActionTypes),
  status: z.enum(['pending', 'accepted', 'cancelled', 'expired']),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type PendingInvite = z.infer<typeof pendingInviteSchema>;

export const pendingInvitesResponseSchema = z.object({ invites: z.array(pendingInviteSchema) });

export const sendPackageInviteResponseSchema = z.object({
  invite: pendingInviteSchema,
  message: z.string(),
});

/** What the invited customer sees before paying: the product, price, discount, first charge. */
export const customerInviteSchema = z.object({
  id: z.uuid(),
  orgId: z.uuid(),
  orgName: z.string(),
  status: z.enum(['pending', 'accepted', 'cancelled', 'expired']),
  expiresAt: z.string(),
  product: productSchema,
  couponName: z.string().nullable(),
  startDate: z.string().nullable(),
  /** The agreed last day (an imported end date): nothing is charged for periods from it. */
  endDate: z.string().nullable().default(null),
  totals: totaledInvoiceSchema,
  currency: z.string(),
  processor: processorKindSchema,
  paymentMethods: z.array(paymentMethodSchema),
});
export type CustomerInvite = z.infer<typeof customerInviteSchema>;

export const acceptInviteResponseSchema = z.discriminatedUnion('valid', [
  z.object({
    valid: z.literal(true),
    subscriptionId: z.uuid().nullable(),
    totals: totaledInvoiceSchema,
  }),
  z.object({ valid: z.literal(false), message: z.string() }),
]);
export type AcceptInviteResponse = z.infer<typeof acceptInviteResponseSchema>;
