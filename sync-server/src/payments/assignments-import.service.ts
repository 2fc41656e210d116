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
import type { JobQueue } from '../jobs/job-queue.ts';
import { refuseAmbiguousEmails } from '../crm/roster-import.service.ts';
import { RowsRefused } from '../plugins/domain-errors.ts';
import { notifyChange } from '../sync/change-feed.ts';
import { orgToday } from './charge.service.ts';
import { orgLabel } from './package-invites.repository.ts';
import { inviteEmail } from './package-invites.service.ts';
import {
  assignableProducts,
  assignedCustomers,
  cardsOnFile,
  insertCardSubscriptions,
  insertExternalPurchases,
  insertExternalSubscriptions,
  insertPendingInvites,
  type AssignedProduct,
  type CardOnFileRow,
  type CardSubscriptionRow,
  type ExternalSubscriptionRow,
} from './assignments-import.repository.ts';
import { CARD_STARTS_PER_JOB } from './card-subscription-start.service.ts';

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
 * - start-stripe-subscription: a `scheduled` subscription on the customer's card on file in this
 *   organisation (a customer without one is a refused row), first billed on its start date; the
 *   processor's subscription is made by a job queued in this transaction
 *   (card-subscription-start.service.ts), once per subscription, after the import is kept.
 *
 * Idempotent by customer and product: what a customer already has of the product is left alone
 * and counted unchanged.
 */

/**
 * What sending invitations and starting card subscriptions need; null where payments are not
 * set up (PAYMENT_PROCESSOR=none).
 */
export type AssignmentPayments = {
  mailer: Mailer;
  publicUrl: string;
  /** Whose cards are on file: the processor the organisation charges with. */
  processor: 'sandbox' | 'stripe';
  jobs: Pick<JobQueue, 'enqueue'>;
} | null;

type Row = AssignmentRow & { row: number; cells: string[] };

const DAY_MS = 86_400_000;

export async function importAssignmentBatch(
  tx: Tx,
  context: {
    orgId: string;
    staffUserId: string | null;
    payments: AssignmentPayments;
    now?: Date;
  },
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
  const cards = await cardsByRow(tx, context, rows, customers);

  // What only the server knows (the processor, a product's place at it, the customer's terms
  // and cards).
  const refused: Array<{ row: number; message: string; cells: string[] }> = [];
  for (const row of rows) {
    const message = paymentRefusal(row, products.get(row.productId), customers.get(row.email), {
      today,
      payments: context.payments,
      card: cards.get(row.row) ?? null,
    });
    if (message) refused.push({ row: row.row, message, cells: row.cells });
  }
  if (refused.length > 0) throw new RowsRefused(refused);

  const subscriptions: ExternalSubscriptionRow[] = [];
  const cardSubscriptions: CardSubscriptionRow[] = [];
  const purchases: Array<{ userId: string; productId: string; priceMinor: number }> = [];
  const invites: Array<{
    userId: string;
    productId: string;
    startDate: DayKey | null;
    endDate: DayKey | null;
    priceMinor: number | null;
  }> = [];
  for (const row of rows) {
    const product = products.get(row.productId);
    const customer = customers.get(row.email);
    // A product archived, or a customer removed, since the rows were checked: nothing for them.
    if (!product || !customer) continue;
    const card = cards.get(row.row);
    if (row.action === 'start-stripe-subscription' && card && row.startDate)
      cardSubscriptions.push({
        userId: customer.userId,
        productId: product.id,
        priceMinor: row.priceMinor,
        startedOn: row.startDate,
        endsOn: row.endDate,
        card,
      });
    else if (row.action === 'create-customer-subscription-invite')
      invites.push({
        userId: customer.userId,
        productId: product.id,
        startDate: row.startDate,
        endDate: row.endDate,
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
  const started = await insertCardSubscriptions(tx, orgId, cardSubscriptions);
  if (subscribed.length + started.length > 0)
    await notifyChange(tx, {
      collection: 'purchases',
      orgId,
      ownerIds: [...new Set([...subscribed, ...started.map((s) => s.userId)])],
    });
  // The processor's subscriptions, made once the import is kept (the jobs are in this
  // transaction): none of them is asked while the import may still be undone.
  for (let at = 0; at < started.length; at += CARD_STARTS_PER_JOB)
    await context.payments?.jobs.enqueue(
      'card-subscription-start',
      { orgId, subscriptionIds: started.slice(at, at + CARD_STARTS_PER_JOB).map((s) => s.id) },
      { tx },
    );
  const recorded = await insertExternalPurchases(tx, { orgId, staffUserId, now }, purchases);
  const expiresAt = new Date(now.getTime() + PRODUCT_INVITE_DAYS * DAY_MS);
  const made = await insertPendingInvites(tx, { orgId, staffUserId, now, expiresAt }, invites);
  if (made.length > 0 && context.payments) {
    const label = await orgLabel(tx, orgId);
    const emailOf = new Map([...customers.values()].map((c) => [c.userId, c.email]));
    for (const invite of made) {
      const product = products.get(invite.productId)!;
      // Queued in the import's transaction (the outbox): sent only if the import is kept.
      await context.payments.mailer.send(
        inviteEmail({
          to: emailOf.get(invite.userId)!,
          orgId,
          orgLabel: label,
          productName: product.name,
          price: formatMoney(invite.priceMinor ?? product.priceMinor, DEFAULT_CURRENCY),
          link: `${context.payments.publicUrl}/dashboard-customer/${orgId}/invites/${invite.id}`,
          expiresOn: expiresAt.toISOString().slice(0, 10),
          endsOn: invite.endDate,
        }),
        { tx },
      );
    }
  }
  const written = subscribed.length + started.length + recorded + made.length;
  return {
    subscribed: subscribed.length,
    cardStarted: started.length,
    recorded,
    invited: made.length,
    unchanged: rows.length - written,
  };
}

/**
 * Each card subscription row's card on file (rows whose customer has none are not in the map),
 * valid in the month of the row's first charge.
 */
async function cardsByRow(
  tx: Tx,
  context: { orgId: string; payments: AssignmentPayments },
  rows: readonly Row[],
  customers: Map<string, { userId: string }>,
): Promise<Map<number, CardOnFileRow>> {
  const found = new Map<number, CardOnFileRow>();
  if (!context.payments) return found;
  // By the month of their first charge (a file's rows start in a few months, not thousands).
  const byMonth = new Map<string, Row[]>();
  for (const row of rows) {
    if (row.action !== 'start-stripe-subscription' || !row.startDate) continue;
    const month = row.startDate.slice(0, 7);
    const listed = byMonth.get(month);
    if (listed) listed.push(row);
    else byMonth.set(month, [row]);
  }
  for (const [month, monthRows] of byMonth) {
    const cards = await cardsOnFile(
      tx,
      { orgId: context.orgId, processor: context.payments.processor, validIn: `${month}-01` },
      monthRows.flatMap((row) => customers.get(row.email)?.userId ?? []),
    );
    for (const row of monthRows) {
      const card = cards.get(customers.get(row.email)?.userId ?? '');
      if (card) found.set(row.row, card);
    }
  }
  return found;
}

/**
 * Why a row paid by card (an invitation, or a card subscription) cannot be written, as Invite to
 * product would refuse it; null if it can.
 */
function paymentRefusal(
  row: Row,
  product: AssignedProduct | undefined,
  customer: { externalPayments: boolean } | undefined,
  context: { today: DayKey; payments: AssignmentPayments; card: CardOnFileRow | null },
): string | null {
  if (row.action === 'start-customer-subscription-for-external-payment' || !product || !customer)
    return null;
  if (!context.payments) return chargeFlowMessages.noProcessor;
  if (!product.processorProductId) return packageInviteMessages.stripeOnly;
  if (customer.externalPayments)
    return `Customer ${row.email} pays outside the platform: use start-customer-subscription-for-external-payment`;
  if (
    row.action === 'create-customer-subscription-invite' &&
    product.variable &&
    row.priceMinor <= 0
  )
    return importMessages.inviteFree;
  // A start date a delayed start of the charge flow would refuse (one-time products start on
  // payment; a start too far ahead) is said now, not when the customer tries to pay or the
  // processor is asked.
  const start = startDateRefusal(row.startDate, product.schedule, context.today);
  if (start || row.action !== 'start-stripe-subscription') return start;
  return context.card ? null : importMessages.noCardOnFile.replace('{x}', row.email);
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
