import type { invoices, subscriptions } from '@platform/schema/db';
import type { RecurringSchedule } from '@platform/schema/payments/billing-calendar';
import { billingCycleOf, renewalDiscountPlan } from '@platform/schema/payments/renewal-totaling';
import { orgTimeZone, type DayKey } from '@platform/schema/time-tracking/org-calendar';
import type { PaymentProcessor, RenewalDiscount } from '../adapters/payments/port.ts';
import type { Db } from '../db/open-database.ts';
import { couponTermsOf } from './coupon-terms.ts';
import * as repo from './payments.repository.ts';
import { findSubscription, setProcessorSubscriptionId } from './subscriptions.repository.ts';

type InvoiceRow = typeof invoices.$inferSelect;
type SubscriptionRow = typeof subscriptions.$inferSelect;

/**
 * Decision 0057: our first charge is made; the processor bills the renewals from the next
 * billing date on. Asked after the paid invoice is written, outside any transaction, with the
 * key `subscription:{id}` — whichever request asks, and however often, the processor answers
 * the same subscription. A processor that does not answer leaves the id empty: the charge was
 * made and is answered as made, and the next Run charge of this invoice asks again.
 *
 * Decision 0060: the processor is told the price before any coupon, and the coupon with which
 * renewals it discounts by our rules — not the first renewal's discounted price, which a `once`
 * or `repeating` coupon would otherwise keep discounting for ever.
 */
export async function startProcessorSubscription(
  db: Db,
  processor: PaymentProcessor,
  invoice: InvoiceRow,
) {
  if (!invoice.subscriptionId) return;
  const subscription = await findSubscription(db, invoice.orgId, invoice.subscriptionId);
  if (!subscription || subscription.processorSubscriptionId || subscription.status === 'cancelled')
    return;
  // The card on file now: its customer may have replaced it since (decision 0064).
  const methodId = subscription.paymentMethodId ?? invoice.paymentMethodId;
  if (!methodId) return;
  const product = await repo.findProduct(db, invoice.orgId, invoice.productId);
  const method = await repo.findPaymentMethod(db, invoice.orgId, invoice.customerUserId, methodId);
  const firstBillingDate = invoice.totals.nextBillingDate;
  if (!product?.processorProductId || product.schedule === 'one-time') return;
  if (!method || !firstBillingDate) return;
  try {
    const started = await processor.startSubscription({
      orgId: invoice.orgId,
      userId: invoice.customerUserId,
      processorProductId: product.processorProductId,
      priceMinor: invoice.priceMinor,
      discount: await renewalDiscountOf(db, invoice, subscription, {
        schedule: product.schedule,
        firstBillingDate,
      }),
      // The paid invoice's own time: the same on every retry, so the request is too.
      subscribedAt: invoice.paidAt ?? invoice.createdAt,
      currency: invoice.currency,
      schedule: product.schedule,
      firstBillingDate,
      timeZone: orgTimeZone(await repo.orgTimeZoneSetting(db, invoice.orgId)),
      processorPaymentMethodId: method.processorPaymentMethodId,
      subscriptionId: subscription.id,
      idempotencyKey: `subscription:${subscription.id}`,
    });
    await setProcessorSubscriptionId(db, subscription.id, started.processorSubscriptionId);
    // Set to stop meanwhile (a customer's cancel, or the sweep for an agreed end, found no
    // processor's subscription to tell): told now. (The sweep asks again until it is told.)
    const now = await findSubscription(db, invoice.orgId, subscription.id);
    if (now?.status === 'cancel-at-period-end' || now?.status === 'cancelled')
      await processor.cancelSubscriptionAtPeriodEnd({
        orgId: invoice.orgId,
        processorSubscriptionId: started.processorSubscriptionId,
      });
  } catch {
    // Left for the next Run charge of this invoice (see above); the charge itself stands.
  }
}

/** The order's coupon on the renewals, with which of them it discounts; null for none. */
async function renewalDiscountOf(
  db: Db,
  invoice: InvoiceRow,
  subscription: SubscriptionRow,
  renewals: { schedule: RecurringSchedule; firstBillingDate: DayKey },
): Promise<RenewalDiscount | null> {
  const coupon = invoice.couponId
    ? await repo.findCoupon(db, invoice.orgId, invoice.couponId)
    : null;
  if (!coupon || coupon.type === 'none') return null;
  const plan = renewalDiscountPlan({
    coupon: couponTermsOf(coupon),
    productId: invoice.productId,
    priceMinor: invoice.priceMinor,
    schedule: renewals.schedule,
    cycle: billingCycleOf(subscription.startedOn, invoice.totals),
    firstRenewal: renewals.firstBillingDate,
  });
  if (!plan) return null;
  return { couponId: coupon.id, name: coupon.name, type: coupon.type, amount: coupon.amount, plan };
}
