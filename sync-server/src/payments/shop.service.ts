import type { FastifyRequest } from 'fastify';
import { orgFormat } from '@platform/schema/organizations/org-format';
import { DEFAULT_CURRENCY } from '@platform/schema/payments/money';
import {
  shopMessages,
  type ShopBuyResponse,
  type ShopQuote,
} from '@platform/schema/payments/shop.zod';
import { couponApplies } from '@platform/schema/payments/totaling';
import type { Mailer } from '../adapters/mailer/port.ts';
import { requirePaymentProcessing } from '../adapters/payments/none.ts';
import type { CardInput, PaymentProcessor } from '../adapters/payments/port.ts';
import { keepNewCard, newCardOf } from './new-card.ts';
import { keyboardOf } from '../access/act-for.ts';
import type { Db } from '../db/open-database.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { isUniqueViolation } from '../db/postgres-errors.ts';
import { hasConfirmedGuardians } from '../families/families.service.ts';
import { Forbidden, NotFound, RuleBroken } from '../plugins/domain-errors.ts';
import { requireSession } from '../plugins/session.ts';
import { notifyChange } from '../sync/change-feed.ts';
import {
  chargeMessages,
  orgToday,
  previewTotals,
  runCharge,
  totalCharge,
} from './charge.service.ts';
import * as repo from './payments.repository.ts';
import { findSubscription, updateSubscription } from './subscriptions.repository.ts';
import { isInvitationInvoice, orgLabel } from './package-invites.repository.ts';

/**
 * The customer's Shop and Purchase history (issue 15): a customer of the organisation, in its
 * app, buys for their own account — a guardian buys for a child by switching into the child's
 * account (spec §6), never in the child's own session.
 */

export type Buyer = { orgId: string; userId: string; actorUserId: string };

export async function requireBuyer(db: Db, request: FastifyRequest, orgId: string): Promise<Buyer> {
  const current = await requireSession(request);
  if (current.session.view !== 'customer' || current.session.orgId !== orgId) {
    throw new Forbidden(shopMessages.notThisApp);
  }
  const keyboard = keyboardOf(current);
  if (!keyboard && (await hasConfirmedGuardians(db, current.user.id))) {
    throw new Forbidden(shopMessages.guardianBuys);
  }
  return { orgId, userId: current.user.id, actorUserId: keyboard ?? current.user.id };
}

type Order = { productId: string; couponCode: string | null; priceMinor: number | null };

/** The product as a customer may buy it, its price and the coupon their code names. */
async function orderOf(db: Db, buyer: Buyer, order: Order) {
  const product = await repo.findProduct(db, buyer.orgId, order.productId);
  if (!product || product.state === 'archived') {
    throw new RuleBroken(chargeMessages.productUnavailable);
  }
  if (product.state === 'requires-consultation') throw new RuleBroken(shopMessages.consultation);
  let priceMinor: number | null = null;
  if (product.variablePricing.enabled) {
    const offered = product.variablePricing.prices.map((p) => p.price);
    if (order.priceMinor === null || !offered.includes(order.priceMinor)) {
      throw new RuleBroken(shopMessages.priceNotOffered);
    }
    priceMinor = order.priceMinor;
  }
  let coupon = null;
  if (order.couponCode) {
    coupon = await repo.findCouponByName(db, buyer.orgId, order.couponCode);
    if (!coupon) throw new RuleBroken(shopMessages.couponUnknown);
    const terms = {
      type: coupon.type,
      amount: coupon.amount,
      appliesToProductIds: coupon.appliesToProductIds,
      duration: { durationType: coupon.durationType, durationInMonths: coupon.durationInMonths },
    };
    if (!couponApplies(terms, product.id)) throw new RuleBroken(shopMessages.couponNotForProduct);
  }
  return { product, priceMinor, coupon };
}

const cardViews = (rows: Awaited<ReturnType<typeof repo.listPaymentMethods>>) =>
  rows.map((c) => ({
    id: c.id,
    brand: c.brand,
    last4: c.last4,
    expMonth: c.expMonth,
    expYear: c.expYear,
  }));

/** POST /api/shop/quote: what paying would charge now, and the buyer's cards. */
export async function shopQuote(
  db: Db,
  processor: PaymentProcessor,
  buyer: Buyer,
  order: Order,
  now = new Date(),
): Promise<ShopQuote> {
  const { product, priceMinor, coupon } = await orderOf(db, buyer, order);
  const totals = await previewTotals(
    db,
    {
      orgId: buyer.orgId,
      customerUserId: buyer.userId,
      productId: product.id,
      couponId: coupon?.id ?? null,
      priceMinor,
      startDate: null,
      prorationMode: 'charge-prorated',
    },
    now,
  );
  return {
    totals,
    couponName: coupon?.name ?? null,
    paymentMethods: cardViews(await repo.listPaymentMethods(db, buyer.orgId, buyer.userId)),
    processor: processor.kind,
    currency: DEFAULT_CURRENCY,
  };
}

/**
 * POST /api/shop/buy: the checkout's order (its id chosen when the checkout opened) is totaled
 * once and charged once, however often Pay is sent (decision 0055).
 */
export async function shopBuy(
  deps: { db: Db; processor: PaymentProcessor; jobs?: Pick<JobQueue, 'enqueue'> },
  buyer: Buyer,
  input: Order & {
    checkoutId: string;
    paymentMethodId: string | null;
    card: CardInput | null;
    processorPaymentMethodId: string | null;
  },
  now = new Date(),
): Promise<ShopBuyResponse> {
  const { db } = deps;
  const processor = requirePaymentProcessing(deps.processor);
  const existing = await repo.findInvoice(db, buyer.orgId, input.checkoutId);
  // Only an order this buyer's own checkout made: not a desk invoice staff totaled, not an
  // invitation's (cancelled or not), never another person's (adversarial review of issue 15).
  if (
    existing &&
    (existing.customerUserId !== buyer.userId ||
      existing.createdByUserId !== buyer.actorUserId ||
      (await isInvitationInvoice(db, existing.id)))
  ) {
    throw new NotFound('There is no such order.');
  }
  if (existing?.status === 'paid') {
    return {
      valid: true,
      recurring: existing.subscriptionId !== null,
      subscriptionId: existing.subscriptionId,
      totals: existing.totals,
    };
  }
  const { product, priceMinor, coupon } = await orderOf(db, buyer, input);
  // A checkout's order is what it was opened for, and still offered as it is now: another
  // product, price or coupon under the same id is another order (start a new checkout).
  if (
    existing &&
    (existing.productId !== product.id ||
      existing.couponId !== (coupon?.id ?? null) ||
      existing.priceMinor !== (priceMinor ?? product.priceMinor) ||
      existing.startDate !== null)
  ) {
    throw new RuleBroken(shopMessages.orderChanged);
  }

  const newCard = newCardOf(input);
  let paymentMethodId = input.paymentMethodId;
  if (paymentMethodId) {
    const own = await repo.findPaymentMethod(db, buyer.orgId, buyer.userId, paymentMethodId);
    if (!own) throw new RuleBroken(chargeMessages.paymentMethodUnknown);
  } else if (newCard) {
    const kept = await keepNewCard(
      db,
      processor,
      { orgId: buyer.orgId, userId: buyer.userId },
      newCard,
    );
    if (!kept.ok) return { valid: false, message: kept.message };
    paymentMethodId = kept.paymentMethodId;
  } else {
    throw new RuleBroken(chargeMessages.paymentMethodUnknown);
  }

  if (existing) {
    // Paid again after a refused card: the same order, with the card chosen now.
    await repo.setOpenInvoicePaymentMethod(db, buyer.orgId, existing.id, paymentMethodId);
  } else {
    try {
      await totalCharge(
        db,
        {
          invoiceId: input.checkoutId,
          orgId: buyer.orgId,
          actorUserId: buyer.actorUserId,
          customerUserId: buyer.userId,
          productId: product.id,
          couponId: coupon?.id ?? null,
          paymentMethodId,
          priceMinor,
          startDate: null,
          prorationMode: 'charge-prorated',
          // A punch card bought in the Shop comes with its credits (decision 0062); the
          // charge gives them only where the product has punch-card groups.
          issuePunchCard: true,
        },
        now,
      );
    } catch (error) {
      // A second Pay of the same checkout at the same moment: the first made the order.
      if (!isUniqueViolation(error)) throw error;
      const other = await repo.findInvoice(db, buyer.orgId, input.checkoutId);
      if (!other || other.customerUserId !== buyer.userId)
        throw new NotFound('There is no such order.');
    }
  }
  const result = await runCharge(
    db,
    processor,
    { orgId: buyer.orgId, invoiceId: input.checkoutId, ...(deps.jobs ? { jobs: deps.jobs } : {}) },
    now,
  );
  if (!result.valid) return { valid: false, message: result.message };
  return {
    valid: true,
    recurring: result.recurring,
    subscriptionId: result.subscriptionId,
    totals: result.totals,
  };
}

/**
 * POST /api/shop/subscriptions/:id/cancel: self-service, at the end of the paid period — nothing
 * more is charged, the customer keeps what they paid for, and an email confirms it.
 */
export async function cancelAtPeriodEnd(
  deps: { db: Db; processor: PaymentProcessor; mailer: Mailer },
  buyer: Buyer,
  subscriptionId: string,
  now = new Date(),
) {
  const { db } = deps;
  const subscription = await findSubscription(db, buyer.orgId, subscriptionId);
  if (!subscription || subscription.customerUserId !== buyer.userId) {
    throw new NotFound('There is no such subscription.');
  }
  const timeZone = await repo.orgTimeZoneSetting(db, buyer.orgId);
  const format = orgFormat(timeZone);
  const endsOn = subscription.nextBillingDate;
  const message = shopMessages.cancelled(
    endsOn ? format.date(endsOn) : format.date(await orgToday(db, buyer.orgId, now)),
  );
  if (subscription.status === 'cancel-at-period-end') {
    // Asked again: the processor is asked again too (harmless if it had it) — a first ask that
    // failed after our row was written (or raced a card start) must not be the last word.
    if (subscription.processorSubscriptionId)
      await deps.processor.cancelSubscriptionAtPeriodEnd({
        orgId: buyer.orgId,
        processorSubscriptionId: subscription.processorSubscriptionId,
      });
    return { status: subscription.status, endsOn, message };
  }
  if (subscription.status === 'cancelled') throw new RuleBroken(shopMessages.notCancellable);
  if (subscription.processorSubscriptionId) {
    // The processor stops billing first: were this to fail, nothing here says it stopped.
    await deps.processor.cancelSubscriptionAtPeriodEnd({
      orgId: buyer.orgId,
      processorSubscriptionId: subscription.processorSubscriptionId,
    });
  }
  const email = await repo.emailOf(db, buyer.userId);
  const org = await orgLabel(db, buyer.orgId);
  await db.transaction(async (tx) => {
    await updateSubscription(tx, subscription.id, { status: 'cancel-at-period-end' });
    await notifyChange(tx, {
      collection: 'purchases',
      orgId: buyer.orgId,
      ownerIds: [buyer.userId],
    });
    if (email) {
      await deps.mailer.send(
        {
          orgId: buyer.orgId,
          to: email,
          subject: `Your ${subscription.productName} subscription is cancelled`,
          text: [
            `You cancelled your ${subscription.productName} subscription with ${org}.`,
            message,
            '',
            'Changed your mind? Buy it again from the Shop in the app.',
          ].join('\n'),
        },
        { tx },
      );
    }
  });
  // A card subscription from a file whose processor's subscription was being made as this was
  // read: the start job may have written its id after this looked (it stops it too when it sees
  // this cancellation first — card-subscription-start.service.ts). Asking twice is harmless.
  if (!subscription.processorSubscriptionId) {
    const after = await findSubscription(db, buyer.orgId, subscription.id);
    if (after?.processorSubscriptionId)
      await deps.processor.cancelSubscriptionAtPeriodEnd({
        orgId: buyer.orgId,
        processorSubscriptionId: after.processorSubscriptionId,
      });
  }
  return { status: 'cancel-at-period-end', endsOn, message };
}
