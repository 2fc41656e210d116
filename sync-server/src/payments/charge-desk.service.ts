import { requirePaymentProcessing } from '../adapters/payments/none.ts';
import type { CardToSave, PaymentProcessor } from '../adapters/payments/port.ts';
import type {
  ChargeContext,
  PaymentMethodView,
  TodaysSales,
  TotalChargeResponse,
} from '@platform/schema/payments/charge.zod';
import { dayRange, orgTimeZone } from '@platform/schema/time-tracking/org-calendar';
import type { ProrationMode } from '@platform/schema/payments/charge-flow.rules';
import { DEFAULT_CURRENCY } from '@platform/schema/payments/money';
import { fullName } from '@platform/schema/app/full-name.rules';
import type { DayKey } from '@platform/schema/time-tracking/org-calendar';
import type { Db } from '../db/open-database.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { rosterItemOrNotFound, rosterNamesOf } from '../crm/customers.service.ts';
import { RuleBroken } from '../plugins/domain-errors.ts';
import { couponView, listCoupons, listProducts, productView } from './catalogue.service.ts';
import { orgToday, runCharge, totalCharge, type RunResult } from './charge.service.ts';
import type { Seller } from './payments.access.ts';
import * as repo from './payments.repository.ts';

/**
 * The staff side of the charge flow (spec §2 'Charge product or subscription'): a seller picks
 * one of the organisation's customers by roster id, a product, a card of that customer, and
 * charges. Every id is looked up within the seller's organisation.
 */

const cardView = (row: Awaited<ReturnType<typeof repo.listPaymentMethods>>[number]) =>
  ({
    id: row.id,
    brand: row.brand,
    last4: row.last4,
    expMonth: row.expMonth,
    expYear: row.expYear,
  }) satisfies PaymentMethodView;

async function customerOf(db: Db, seller: Seller, rosterId: string) {
  return rosterItemOrNotFound(db, seller, rosterId);
}

/** What the modal offers: the customer, their cards, the products and coupons on offer. */
export async function chargeContext(
  db: Db,
  processor: PaymentProcessor,
  seller: Seller,
  rosterId: string,
  now = new Date(),
): Promise<ChargeContext> {
  const item = await customerOf(db, seller, rosterId);
  const [cards, productRows, couponRows, today] = await Promise.all([
    repo.listPaymentMethods(db, seller.orgId, item.userId),
    listProducts(db, seller),
    listCoupons(db, seller),
    orgToday(db, seller.orgId, now),
  ]);
  return {
    customer: {
      rosterId: item.id,
      userId: item.userId,
      name: fullName(item),
      email: item.email,
    },
    paymentMethods: cards.map(cardView),
    products: productRows.map(productView),
    coupons: couponRows.map(couponView),
    processor: processor.kind,
    currency: DEFAULT_CURRENCY,
    today,
  };
}

/**
 * Keeps a card for the customer at the processor: the sandbox's test cards in the demo, or the
 * PaymentMethod Stripe Elements made on the card-entry page (decision 0063).
 */
export async function addCustomerCard(
  db: Db,
  processor: PaymentProcessor,
  seller: Seller,
  rosterId: string,
  card: CardToSave,
): Promise<PaymentMethodView> {
  const item = await customerOf(db, seller, rosterId);
  const live = requirePaymentProcessing(processor);
  const saved = await live.saveCard({ orgId: seller.orgId, userId: item.userId, card });
  if (!saved.ok) throw new RuleBroken(saved.message);
  const row = await repo.insertPaymentMethod(db, {
    orgId: seller.orgId,
    userId: item.userId,
    processor: live.kind,
    ...saved.card,
  });
  return cardView(row);
}

export type DeskTotalRequest = {
  rosterId: string;
  productId: string;
  paymentMethodId: string | null;
  couponId: string | null;
  startDate: DayKey | null;
  priceMinor: number | null;
  prorationMode: ProrationMode;
  issuePunchCard: boolean;
};

/** spec §4 Continue, for a customer of the seller's organisation. */
export async function totalForCustomer(
  db: Db,
  seller: Seller,
  request: DeskTotalRequest,
  now = new Date(),
): Promise<TotalChargeResponse> {
  const item = await customerOf(db, seller, request.rosterId);
  return totalCharge(
    db,
    {
      orgId: seller.orgId,
      actorUserId: seller.userId,
      customerUserId: item.userId,
      productId: request.productId,
      couponId: request.couponId,
      paymentMethodId: request.paymentMethodId,
      priceMinor: request.priceMinor,
      startDate: request.startDate,
      prorationMode: request.prorationMode,
      issuePunchCard: request.issuePunchCard,
    },
    now,
  );
}

/** spec §4 Run charge: the invoice of the seller's organisation, charged once. */
export function runChargeAsSeller(
  db: Db,
  processor: PaymentProcessor,
  seller: Seller,
  invoiceId: string,
  jobs?: Pick<JobQueue, 'enqueue'>,
): Promise<RunResult> {
  return runCharge(db, processor, { orgId: seller.orgId, invoiceId, ...(jobs ? { jobs } : {}) });
}

/** The point of sale's day (spec issue 15 'see today's sales with their totals'). */
export async function todaysSales(db: Db, seller: Seller, now = new Date()): Promise<TodaysSales> {
  const day = await orgToday(db, seller.orgId, now);
  const timeZone = orgTimeZone(await repo.orgTimeZoneSetting(db, seller.orgId));
  const { from, to } = dayRange(day, timeZone);
  const rows = await repo.paidInvoicesBetween(db, seller.orgId, new Date(from), new Date(to));
  const names = await rosterNamesOf(
    db,
    seller.orgId,
    rows.map((row) => row.customerUserId),
  );
  return {
    day,
    currency: rows[0]?.currency ?? DEFAULT_CURRENCY,
    totalMinor: rows.reduce((sum, row) => sum + row.totalMinor, 0),
    sales: rows.map((row) => ({
      invoiceId: row.invoiceId,
      rosterId: names.get(row.customerUserId)?.rosterId ?? null,
      // Someone no longer on the list still bought: say so rather than hide the sale.
      customerName: names.get(row.customerUserId)?.name ?? 'A former customer',
      productName: row.productName,
      totalMinor: row.totalMinor,
      paidAt: (row.paidAt ?? now).toISOString(),
      subscription: row.subscriptionId !== null,
    })),
  };
}
