import { importMessages, type AssignmentRow } from '@platform/schema/imports/import-rules';
import { billingDateAfter } from '@platform/schema/payments/billing-calendar';
import { chargeFlowMessages, startDateRefusal } from '@platform/schema/payments/charge-flow.rules';
import { DEFAULT_CURRENCY, formatMoney } from '@platform/schema/payments/money';
import {
  packageInviteMessages,
  PRODUCT_INVITE_DAYS,
} from '@platform/schema/payments/package-invite.zod';
import type { DayKey } from '@platform/schema/time-tracking/org-calendar';
import type { Mailer } from '../adapters/mailer/port.ts';
import type { Tx } from '../db/open-database.ts';
import { refuseAmbiguousEmails } from '../crm/roster-import.service.ts';
import { RowsRefused } from '../plugins/domain-errors.ts';
import { notifyChange } from '../sync/change-feed.ts';
import { orgToday } from './charge.service.ts';
import { orgLabel } from './package-invites.repository.ts';
import { inviteEmail } from './package-invites.service.ts';
import {
  assignableProducts,
  assignedCustomers,
  insertExternalPurchases,
  insertExternalSubscriptions,
  insertPendingInvites,
  type AssignedProduct,
  type ExternalSubscriptionRow,
} from './assignments-import.repository.ts';

/**
 * The product assignments import's writes (issue 17, decisions 0071 and 0073), a batch at a time
 * in the import's one transaction. **Nothing is charged here**: the import only writes rows, and
 * every charge stays where it is exactly-once today (the invitation's payment page).
 *
 * - start-customer-subscription-for-external-payment: a recurring product becomes a subscription
 *   paid outside the platform — scheduled, running, or (an end date already past) ended, with
 *   the agreed price (the product's less the row's discount) and its end date; a one-time
 *   product is recorded as Invite to product records it (an accepted invitation).
 * - create-customer-subscription-invite: an invitation and its email, queued in this
 *   transaction (the outbox): both are kept, or neither.
 * - start-stripe-subscription: refused by the rules before this (not built yet, decision 0073).
 *
 * Idempotent by customer and product: what a customer already has of the product is left alone
 * and counted unchanged.
 */

/** What sending invitations needs; null where payments are not set up (PAYMENT_PROCESSOR=none). */
export type InviteSending = { mailer: Mailer; publicUrl: string } | null;

type Row = AssignmentRow & { row: number; cells: string[] };

const DAY_MS = 86_400_000;

export async function importAssignmentBatch(
  tx: Tx,
  context: { orgId: string; staffUserId: string | null; invites: InviteSending; now?: Date },
  rows: readonly Row[],
): Promise<Record<string, number>> {
  const { orgId, staffUserId } = context;
  const now = context.now ?? new Date();
  await refuseAmbiguousEmails(tx, orgId, rows);
  const today = await orgToday(tx, orgId, now);
  const products = await assignableProducts(
    tx,
    orgId,
    rows.map((r) => r.productId),
  );
  const customers = await assignedCustomers(
    tx,
    orgId,
    rows.map((r) => r.email),
  );

  // What only the server knows (the processor, a product's place at it, the customer's terms).
  const refused: Array<{ row: number; message: string; cells: string[] }> = [];
  for (const row of rows) {
    const message = inviteRefusal(row, products.get(row.productId), customers.get(row.email), {
      today,
      invites: context.invites,
    });
    if (message) refused.push({ row: row.row, message, cells: row.cells });
  }
  if (refused.length > 0) throw new RowsRefused(refused);

  const subscriptions: ExternalSubscriptionRow[] = [];
  const purchases: Array<{ userId: string; productId: string; priceMinor: number }> = [];
  const invites: Array<{
    userId: string;
    productId: string;
    startDate: DayKey | null;
    priceMinor: number | null;
  }> = [];
  for (const row of rows) {
    const product = products.get(row.productId);
    const customer = customers.get(row.email);
    // A product archived, or a customer removed, since the rows were checked: nothing for them.
    if (!product || !customer) continue;
    if (row.action === 'create-customer-subscription-invite')
      invites.push({
        userId: customer.userId,
        productId: product.id,
        startDate: row.startDate,
        // A discount is the price agreed (the charge holds the invoice to it: agreedPrice); a
        // product sold at a price named with each sale is offered at its listed one.
        priceMinor: row.discount || product.variable ? row.priceMinor : null,
      });
    else if (product.type === 'recurring' && product.schedule !== 'one-time')
      subscriptions.push(externalSubscription(row, product, customer.userId, today));
    else
      purchases.push({
        userId: customer.userId,
        productId: product.id,
        priceMinor: row.priceMinor,
      });
  }

  const subscribed = await insertExternalSubscriptions(tx, orgId, subscriptions);
  if (subscribed.length > 0)
    await notifyChange(tx, {
      collection: 'purchases',
      orgId,
      ownerIds: [...new Set(subscribed)],
    });
  const recorded = await insertExternalPurchases(tx, { orgId, staffUserId, now }, purchases);
  const expiresAt = new Date(now.getTime() + PRODUCT_INVITE_DAYS * DAY_MS);
  const made = await insertPendingInvites(tx, { orgId, staffUserId, now, expiresAt }, invites);
  if (made.length > 0 && context.invites) {
    const label = await orgLabel(tx, orgId);
    const emailOf = new Map([...customers.values()].map((c) => [c.userId, c.email]));
    for (const invite of made) {
      const product = products.get(invite.productId)!;
      // Queued in the import's transaction (the outbox): sent only if the import is kept.
      await context.invites.mailer.send(
        inviteEmail({
          to: emailOf.get(invite.userId)!,
          orgId,
          orgLabel: label,
          productName: product.name,
          price: formatMoney(invite.priceMinor ?? product.priceMinor, DEFAULT_CURRENCY),
          link: `${context.invites.publicUrl}/dashboard-customer/${orgId}/invites/${invite.id}`,
          expiresOn: expiresAt.toISOString().slice(0, 10),
        }),
        { tx },
      );
    }
  }
  const written = subscribed.length + recorded + made.length;
  return {
    subscribed: subscribed.length,
    recorded,
    invited: made.length,
    unchanged: rows.length - written,
  };
}

/** Why an invitation row cannot be sent, as Invite to product would refuse it; null if it can. */
function inviteRefusal(
  row: Row,
  product: AssignedProduct | undefined,
  customer: { externalPayments: boolean } | undefined,
  context: { today: DayKey; invites: InviteSending },
): string | null {
  if (row.action !== 'create-customer-subscription-invite' || !product || !customer) return null;
  if (!context.invites) return chargeFlowMessages.noProcessor;
  if (!product.processorProductId) return packageInviteMessages.stripeOnly;
  if (customer.externalPayments)
    return `Customer ${row.email} pays outside the platform: use start-customer-subscription-for-external-payment`;
  if (product.variable && row.priceMinor <= 0) return importMessages.inviteFree;
  // A start date the invitation's payment would refuse (one-time products start on payment;
  // a start too far ahead) is said now, not when the customer tries to pay.
  return startDateRefusal(row.startDate, product.schedule, context.today);
}

/**
 * A subscription paid outside the platform, from the row's dates: ended when its end date has
 * come, scheduled when it starts after today, running otherwise; its next billing date is the
 * first of its periods after today (counted from its start), none once it would fall on or
 * after its end.
 */
export function externalSubscription(
  row: Pick<AssignmentRow, 'productId' | 'priceMinor' | 'startDate' | 'endDate'>,
  product: Pick<AssignedProduct, 'schedule'>,
  userId: string,
  today: DayKey,
): ExternalSubscriptionRow {
  if (product.schedule === 'one-time') throw new Error('a one-time product is not a subscription');
  const startedOn = row.startDate ?? today;
  const ended = row.endDate !== null && row.endDate <= today;
  const next = ended ? null : billingDateAfter(startedOn, product.schedule, today);
  // A start after today is billed from its start; billingDateAfter answers the start itself.
  const nextBillingDate =
    next !== null && row.endDate !== null && next >= row.endDate ? null : next;
  return {
    userId,
    productId: row.productId,
    priceMinor: row.priceMinor,
    status: ended ? 'cancelled' : startedOn > today ? 'scheduled' : 'active',
    startedOn,
    nextBillingDate,
    endsOn: row.endDate,
    // Ended on its end date (the day it was agreed to stop), not when the file was read: noon
    // UTC, which is that day from UTC-12 to UTC+11 (the export reads it back as that day).
    cancelledAt: ended ? `${row.endDate}T12:00:00Z` : null,
  };
}
