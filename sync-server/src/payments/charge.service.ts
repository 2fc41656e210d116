import { isDeepStrictEqual } from 'node:util';
import {
  chargeFlowMessages,
  punchCardToggle,
  type ProrationMode,
} from '@platform/schema/payments/charge-flow.rules';
import { packageInviteMessages } from '@platform/schema/payments/package-invite.zod';
import { orgFormat } from '@platform/schema/organizations/org-format';
import {
  couponApplies,
  totalInvoice,
  TotalingError,
  type TotaledInvoice,
  type TotalingProduct,
} from '@platform/schema/payments/totaling';
import { dayKeyOf, orgTimeZone, type DayKey } from '@platform/schema/time-tracking/org-calendar';
import type { invoices } from '@platform/schema/db';
import type { PaymentProcessor } from '../adapters/payments/port.ts';
import type { Db, Tx } from '../db/open-database.ts';
import { NotFound, RuleBroken } from '../plugins/domain-errors.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { notifyChange } from '../sync/change-feed.ts';
import { couponTermsOf } from './coupon-terms.ts';
import { issueCreditsForInvoice } from './credits.service.ts';
import * as repo from './payments.repository.ts';
import { startProcessorSubscription } from './processor-subscription.service.ts';

/**
 * The charge flow on the server (spec §4 Charge flow; issue 15): Continue totals an invoice
 * and keeps it; Run charge charges it — once, whatever doubles or repeats the request (double
 * click, a retry after a timeout, two tabs). Decision 0055:
 *
 * 1. In a short transaction the invoice row is locked; a paid invoice answers its result again,
 *    one being charged by another request answers "in progress", otherwise it is totaled again
 *    from today's product and coupon (a changed figure is shown, not charged), the coupon's
 *    redemption is reserved, and the invoice is marked charging.
 * 2. The processor is asked, outside any transaction, with the key `{invoiceId}:{attempt}`.
 * 3. The outcome is written: paid (with its subscription), or open again with the reason and
 *    the next attempt number, the coupon's redemption given back. An outcome never heard (the
 *    call threw) leaves the attempt number as it was, so asking again is the same question and
 *    the processor answers the first outcome.
 */

export const CHARGING_LEASE_MS = 60_000;

export const chargeMessages = {
  ...chargeFlowMessages,
  productUnavailable: 'This product is no longer offered.',
  couponUsedUp: 'This coupon has been used up.',
  couponUnknown: 'This coupon is not available.',
  paymentMethodUnknown: 'Choose a payment method of this customer.',
  priceRequired: 'A price must be set for this product',
  totalsChanged: 'The order changed since it was totaled. Check the order summary again.',
  inProgress: 'This charge is already being processed.',
} as const;

export type TotalRequest = {
  orgId: string;
  actorUserId: string;
  customerUserId: string;
  productId: string;
  couponId: string | null;
  paymentMethodId: string | null;
  priceMinor: number | null;
  startDate: DayKey | null;
  prorationMode: ProrationMode;
  issuePunchCard: boolean;
  /** The invoice's id, chosen by the caller (a customer's checkout names its order once). */
  invoiceId?: string;
  /**
   * The price was agreed on a staff member's invitation (decision 0073): a product without
   * variable pricing may then be sold at `priceMinor`, above nothing and at most its price.
   * Set only by the server from an invitation's row — never from a request's body.
   */
  agreedPrice?: boolean;
  /**
   * The agreed last day of the subscription this sale starts (an invitation imported with an
   * end date, decision 0073): nothing is billed on or after it. Set only by the server.
   */
  endsOn?: DayKey | null;
};

type InvoiceRow = typeof invoices.$inferSelect;

/** The organisation's today, the day start-date windows count from. */
export async function orgToday(db: Db | Tx, orgId: string, now = new Date()): Promise<DayKey> {
  return (await orgCalendar(db, orgId, now)).today;
}

async function orgCalendar(db: Db | Tx, orgId: string, now: Date) {
  const timeZone = orgTimeZone(await repo.orgTimeZoneSetting(db, orgId));
  return { today: dayKeyOf(now.getTime(), timeZone), formatDay: orgFormat(timeZone).date };
}

/** A product row as totaling reads it. */
export function totalingProductOf(
  product: NonNullable<Awaited<ReturnType<typeof repo.findProduct>>>,
): TotalingProduct {
  return {
    id: product.id,
    name: product.name,
    type: product.type,
    schedule: product.schedule,
    priceMinor: product.priceMinor,
    startupFeeMinor: product.startupFeeMinor,
    stripeProductId: product.processorProductId,
    unifiedBillingConfig: product.unifiedBillingConfig,
  };
}

/** The figures of an order from the rows as they are now (throws RuleBroken with the reason). */
async function totalsFor(
  db: Db | Tx,
  request: Omit<TotalRequest, 'actorUserId' | 'paymentMethodId' | 'issuePunchCard'>,
  now: Date,
) {
  const product = await repo.findProduct(db, request.orgId, request.productId);
  if (!product || product.state === 'archived') {
    throw new RuleBroken(chargeMessages.productUnavailable);
  }
  const variable = product.variablePricing.enabled || product.state === 'requires-consultation';
  const agreed = !variable && request.agreedPrice === true && request.priceMinor !== null;
  const priceMinor =
    variable || agreed ? request.priceMinor : (request.priceMinor ?? product.priceMinor);
  if (priceMinor === null || ((variable || agreed) && priceMinor <= 0)) {
    throw new RuleBroken(chargeMessages.priceRequired);
  }
  if (
    !variable &&
    priceMinor !== product.priceMinor &&
    !(agreed && priceMinor < product.priceMinor)
  ) {
    // Only a product with variable pricing takes a price from the request; an invitation's
    // agreed price is a discount, never more than the product's.
    throw new RuleBroken(chargeMessages.totalsChanged);
  }
  const coupon = request.couponId
    ? await repo.findCoupon(db, request.orgId, request.couponId)
    : null;
  if (request.couponId && (!coupon || coupon.archivedAt)) {
    throw new RuleBroken(chargeMessages.couponUnknown);
  }
  const { today, formatDay } = await orgCalendar(db, request.orgId, now);
  try {
    const totals = totalInvoice({
      product: totalingProductOf(product),
      priceMinor,
      coupon: couponTermsOf(coupon),
      today,
      startDate: request.startDate,
      prorationMode: request.prorationMode,
      formatDay,
    });
    return { product, coupon, priceMinor, totals, today };
  } catch (error) {
    if (error instanceof TotalingError) throw new RuleBroken(error.message);
    throw error;
  }
}

/** The rows of an order as its unanswered attempt asked it: the invoice's own figures. */
async function asAsked(tx: Tx, invoice: InvoiceRow, now: Date) {
  const product = await repo.findProduct(tx, invoice.orgId, invoice.productId);
  if (!product) throw new NotFound('There is no such product.');
  const coupon = invoice.couponId
    ? await repo.findCoupon(tx, invoice.orgId, invoice.couponId)
    : null;
  return { product, coupon, totals: invoice.totals, today: await orgToday(tx, invoice.orgId, now) };
}

/** The figures an order would have now, kept nowhere (an invitation shows them before paying). */
export async function previewTotals(
  db: Db,
  request: Omit<TotalRequest, 'actorUserId' | 'paymentMethodId' | 'issuePunchCard'>,
  now = new Date(),
): Promise<TotaledInvoice> {
  return (await totalsFor(db, request, now)).totals;
}

/** spec §4 Continue: totals the order and keeps it as an open invoice. */
export async function totalCharge(db: Db | Tx, request: TotalRequest, now = new Date()) {
  const { product, priceMinor, totals } = await totalsFor(db, request, now);
  if (request.paymentMethodId) {
    const method = await repo.findPaymentMethod(
      db,
      request.orgId,
      request.customerUserId,
      request.paymentMethodId,
    );
    if (!method) throw new RuleBroken(chargeMessages.paymentMethodUnknown);
  }
  const invoice = await repo.insertInvoice(db, {
    ...(request.invoiceId ? { id: request.invoiceId } : {}),
    orgId: request.orgId,
    customerUserId: request.customerUserId,
    productId: request.productId,
    productName: product.name,
    couponId: request.couponId,
    paymentMethodId: request.paymentMethodId,
    priceMinor,
    priceAgreed: request.agreedPrice === true,
    startDate: request.startDate,
    endsOn: request.endsOn ?? null,
    prorationMode: request.prorationMode,
    // What the sale will give: the toggle counts only where a punch card can be issued (§5).
    issuePunchCard: punchCardToggle(product).issues(request.issuePunchCard),
    totals,
    totalMinor: totals.total,
    createdByUserId: request.actorUserId,
  });
  return { invoiceId: invoice.id, totals };
}

export type RunResult =
  | {
      valid: true;
      invoiceId: string;
      totals: TotaledInvoice;
      subscriptionId: string | null;
      recurring: boolean;
    }
  | {
      valid: false;
      invoiceId: string;
      message: string;
      inProgress?: boolean;
      totals?: TotaledInvoice;
    };

// Compared deeply, not as JSON text: jsonb gives the keys back in an order of its own.
const sameTotals = (a: TotaledInvoice, b: TotaledInvoice) => isDeepStrictEqual(a, b);

/** spec §4 Run charge: charges the invoice once (see the module comment). */
export async function runCharge(
  db: Db,
  processor: PaymentProcessor,
  request: {
    orgId: string;
    invoiceId: string;
    /** Where the receipt is queued, in the transaction that marks the invoice paid. */
    jobs?: Pick<JobQueue, 'enqueue'>;
  },
  now = new Date(),
): Promise<RunResult> {
  // 1. Claim the invoice.
  const claim = await db.transaction(async (tx) => {
    const invoice = await repo.lockInvoice(tx, request.orgId, request.invoiceId);
    if (!invoice) throw new NotFound('There is no such invoice.');
    if (invoice.status === 'paid') return { kind: 'paid' as const, invoice };
    if (invoice.status === 'void') throw new RuleBroken(chargeMessages.totalsChanged);
    if (
      invoice.status === 'charging' &&
      invoice.chargingSince &&
      now.getTime() - invoice.chargingSince.getTime() < CHARGING_LEASE_MS
    ) {
      return { kind: 'in-progress' as const, invoice };
    }
    // An attempt asked and never answered (chargingSince kept, below) may have charged: it is
    // asked again exactly as it was — same key, same amount — and neither re-totaled nor
    // re-checked in between: a price changed meanwhile would otherwise reach the processor
    // under the old key (a mismatch at Stripe, a wrong record here) or strand the invoice.
    const unanswered = invoice.chargingSince !== null;
    const fresh = unanswered
      ? await asAsked(tx, invoice, now)
      : await totalsFor(
          tx,
          {
            orgId: invoice.orgId,
            customerUserId: invoice.customerUserId,
            productId: invoice.productId,
            couponId: invoice.couponId,
            priceMinor: invoice.priceMinor,
            agreedPrice: invoice.priceAgreed,
            startDate: invoice.startDate,
            prorationMode: invoice.prorationMode,
          },
          now,
        );
    if (!unanswered && !sameTotals(fresh.totals, invoice.totals)) {
      await repo.updateInvoice(tx, invoice.id, {
        totals: fresh.totals,
        totalMinor: fresh.totals.total,
        status: 'open',
      });
      return { kind: 'changed' as const, invoice, totals: fresh.totals };
    }
    if (!invoice.paymentMethodId && invoice.totalMinor > 0) {
      throw new RuleBroken(chargeMessages.paymentMethodUnknown);
    }
    // An agreed end that has come (an invitation's, decision 0073): nothing is left to start —
    // whoever asks, however late (a refused card tried again after the end).
    if (!unanswered && invoice.endsOn !== null && invoice.endsOn <= fresh.today) {
      throw new RuleBroken(packageInviteMessages.endPassed);
    }
    // A coupon that discounts this product takes one of its redemptions now (given back if the
    // charge fails); the database refuses more than the coupon allows (coupons_redemptions).
    const coupon = fresh.coupon;
    let couponReserved = invoice.couponReserved;
    if (coupon && couponApplies(couponTermsOf(coupon), invoice.productId) && !couponReserved) {
      if (!(await repo.reserveCouponRedemption(tx, coupon.id))) {
        throw new RuleBroken(chargeMessages.couponUsedUp);
      }
      couponReserved = true;
    }
    await repo.updateInvoice(tx, invoice.id, {
      status: 'charging',
      chargingSince: now,
      couponReserved,
    });
    const method = invoice.paymentMethodId
      ? await repo.findPaymentMethod(
          tx,
          invoice.orgId,
          invoice.customerUserId,
          invoice.paymentMethodId,
        )
      : null;
    return {
      kind: 'charge' as const,
      invoice,
      method,
      couponReserved,
      product: fresh.product,
      today: fresh.today,
    };
  });

  if (claim.kind === 'paid') {
    await startProcessorSubscription(db, processor, claim.invoice);
    return paidResult(claim.invoice);
  }
  if (claim.kind === 'in-progress') {
    return {
      valid: false,
      invoiceId: claim.invoice.id,
      message: chargeMessages.inProgress,
      inProgress: true,
    };
  }
  if (claim.kind === 'changed') {
    return {
      valid: false,
      invoiceId: claim.invoice.id,
      message: chargeMessages.totalsChanged,
      totals: claim.totals,
    };
  }
  const { invoice, method, product, today, couponReserved } = claim;

  // 2. Ask the processor (nothing to ask for a charge of zero: a delayed start).
  let outcome: Awaited<ReturnType<PaymentProcessor['charge']>>;
  if (invoice.totalMinor === 0) {
    outcome = { status: 'succeeded', chargeId: '' };
  } else if (!method) {
    outcome = { status: 'declined', message: chargeMessages.paymentMethodUnknown };
  } else {
    try {
      outcome = await processor.charge({
        orgId: invoice.orgId,
        userId: invoice.customerUserId,
        idempotencyKey: `${invoice.id}:${invoice.attempt}`,
        processorPaymentMethodId: method.processorPaymentMethodId,
        amountMinor: invoice.totalMinor,
        currency: invoice.currency,
        description: product.name,
      });
    } catch (error) {
      // Never heard: the next try is the same attempt and asks with the same key, so the
      // processor answers what it did the first time instead of charging again. chargingSince
      // stays: it marks the attempt as unanswered until an outcome is written.
      await repo.updateInvoice(db, invoice.id, { status: 'open' });
      throw error;
    }
  }

  // 3. Write the outcome.
  const result = await db.transaction(async (tx) => {
    // A slower request whose lease ran out may have been overtaken: the processor answered both
    // the same (same key), and the first to write it wins — one subscription, never two.
    const current = await repo.lockInvoice(tx, invoice.orgId, invoice.id);
    if (current?.status === 'paid') return paidResult(current);
    if (outcome.status !== 'succeeded') {
      await repo.updateInvoice(tx, invoice.id, {
        status: 'open',
        chargingSince: null,
        attempt: invoice.attempt + 1,
        failureMessage: outcome.message,
        couponReserved: false,
      });
      if (invoice.couponId && couponReserved) {
        await repo.releaseCouponRedemption(tx, invoice.couponId);
      }
      return { valid: false as const, invoiceId: invoice.id, message: outcome.message };
    }
    const recurring = product.type === 'recurring';
    let subscriptionId: string | null = null;
    if (recurring) {
      const delayed = invoice.startDate !== null && invoice.startDate > today;
      const subscription = await repo.insertSubscription(tx, {
        orgId: invoice.orgId,
        customerUserId: invoice.customerUserId,
        productId: invoice.productId,
        productName: invoice.productName,
        couponId: invoice.couponId,
        priceMinor: invoice.priceMinor,
        status: delayed ? 'scheduled' : 'active',
        startedOn: invoice.startDate ?? today,
        nextBillingDate: invoice.totals.nextBillingDate,
        endsOn: invoice.endsOn,
        firstInvoiceId: invoice.id,
        // Its renewals are charged to the card it was bought with (decision 0064).
        paymentMethodId: method?.id ?? null,
        card: method ? repo.cardOnFileOf(method) : null,
      });
      subscriptionId = subscription.id;
    }
    await repo.updateInvoice(tx, invoice.id, {
      status: 'paid',
      chargingSince: null,
      paidAt: now,
      processorChargeId: outcome.chargeId || null,
      subscriptionId,
      failureMessage: null,
    });
    // The buyer's family and staff who sell replicate these (decision 0058); an unpaid invoice
    // was a tombstone nobody needed to be told about.
    const buyer = { orgId: invoice.orgId, ownerIds: [invoice.customerUserId] };
    if (subscriptionId) await notifyChange(tx, { collection: 'purchases', ...buyer });
    // A punch card's credits, given with the payment that bought them (decision 0062).
    await issueCreditsForInvoice(tx, invoice, product);
    await notifyChange(tx, { collection: 'invoices', ...buyer });
    // The receipt (email and push) is background work: queued only if the payment is kept.
    await request.jobs?.enqueue(
      'payment-receipt',
      { orgId: invoice.orgId, invoiceId: invoice.id },
      { tx },
    );
    return {
      valid: true as const,
      invoiceId: invoice.id,
      totals: invoice.totals,
      subscriptionId,
      recurring,
    };
  });
  if (result.valid && result.subscriptionId) {
    // The invoice as written, by this request or one that overtook it: its subscription, and
    // when it was paid (which the processor's request is made from, the same every time).
    const paid = await repo.findInvoice(db, invoice.orgId, invoice.id);
    if (paid) await startProcessorSubscription(db, processor, paid);
  }
  return result;
}

function paidResult(invoice: InvoiceRow): RunResult {
  return {
    valid: true,
    invoiceId: invoice.id,
    totals: invoice.totals,
    subscriptionId: invoice.subscriptionId,
    recurring: invoice.subscriptionId !== null,
  };
}
