import { DEFAULT_CURRENCY, formatMoney } from '@platform/schema/payments/money';
import { chargeFlowMessages, startDateRefusal } from '@platform/schema/payments/charge-flow.rules';
import {
  packageInviteMessages,
  PRODUCT_INVITE_DAYS,
  type AcceptInviteResponse,
  type CustomerInvite,
  type InviteActionType,
  type PendingInvite,
} from '@platform/schema/payments/package-invite.zod';
import { totalInvoice } from '@platform/schema/payments/totaling';
import type { Mailer } from '../adapters/mailer/port.ts';
import { requirePaymentProcessing } from '../adapters/payments/none.ts';
import type { CardInput, PaymentProcessor } from '../adapters/payments/port.ts';
import { keepNewCard, newCardOf } from './new-card.ts';
import type { Db } from '../db/open-database.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { rosterItemOrNotFound, rosterNamesOf } from '../crm/customers.service.ts';
import { hasConfirmedGuardians } from '../families/families.service.ts';
import { Forbidden, NotFound, RuleBroken } from '../plugins/domain-errors.ts';
import { notifyChange } from '../sync/change-feed.ts';
import { couponView, productView } from './catalogue.service.ts';
import {
  chargeMessages,
  orgToday,
  previewTotals,
  runCharge,
  totalCharge,
  totalingProductOf,
} from './charge.service.ts';
import type { Seller } from './payments.access.ts';
import * as repo from './payments.repository.ts';
import * as invites from './package-invites.repository.ts';

/**
 * Invitations to products (spec §2 Invite-to-product, §3 action types, §5; issue 15). Staff who
 * sell offer a customer a product; what happens is decided by the customer and the request:
 *
 * - start-customer-subscription-for-external-payment — the customer pays outside the platform
 *   (added 'with external payments'): the subscription is recorded, nothing is charged. It is
 *   the only action such a customer gets: no card, no emailed payment link.
 * - start-stripe-subscription — a card of the customer's is named: charged now, through the same
 *   exactly-once charge as the charge flow.
 * - create-customer-subscription-invite — otherwise: an email with a link; the customer sees
 *   the product, price, discount and first charge, pays with a card, and the subscription
 *   starts as invited. It stays open PRODUCT_INVITE_DAYS days, and staff may cancel it.
 */

export type InviteDeps = {
  db: Db;
  processor: PaymentProcessor;
  mailer: Mailer;
  publicUrl: string;
  /** Receipts are queued here (tests may leave them out). */
  jobs?: Pick<JobQueue, 'enqueue'>;
};

type InviteInput = {
  rosterId: string;
  productId: string;
  priceMinor: number | null;
  startDate: string | null;
  couponId: string | null;
  paymentMethodId: string | null;
};

const DAY_MS = 86_400_000;

type InviteStatus = PendingInvite['status'];
const statusOf = (
  invite: { status: 'pending' | 'accepted' | 'cancelled'; expiresAt: Date },
  now: Date,
): InviteStatus =>
  invite.status === 'pending' && invite.expiresAt.getTime() <= now.getTime()
    ? 'expired'
    : invite.status;

/** The product on offer, its price and coupon, checked against spec §5. */
async function offerOf(
  db: Db,
  orgId: string,
  input: Omit<InviteInput, 'rosterId' | 'paymentMethodId'>,
  now: Date,
) {
  const product = await repo.findProduct(db, orgId, input.productId);
  if (!product || product.state === 'archived') {
    throw new RuleBroken(chargeMessages.productUnavailable);
  }
  if (!product.processorProductId) throw new RuleBroken(packageInviteMessages.stripeOnly);
  const variable = product.variablePricing.enabled || product.state === 'requires-consultation';
  if (variable && (input.priceMinor === null || input.priceMinor <= 0)) {
    throw new RuleBroken(packageInviteMessages.priceRequired);
  }
  const priceMinor = variable ? input.priceMinor : null;
  const coupon = input.couponId ? await repo.findCoupon(db, orgId, input.couponId) : null;
  if (input.couponId && (!coupon || coupon.archivedAt)) {
    throw new RuleBroken(chargeMessages.couponUnknown);
  }
  const today = await orgToday(db, orgId, now);
  const refusal = startDateRefusal(input.startDate, product.schedule, today);
  if (refusal) throw new RuleBroken(refusal);
  return { product, coupon, priceMinor, today };
}

export function inviteEmail(input: {
  to: string;
  orgId: string;
  orgLabel: string;
  productName: string;
  price: string;
  link: string;
  expiresOn: string;
  /** The agreed last day of the subscription (an imported end date), as the reader reads it. */
  endsOn?: string | null;
}) {
  return {
    orgId: input.orgId,
    to: input.to,
    subject: `${input.orgLabel} invites you to ${input.productName}`,
    text: [
      `${input.orgLabel} invites you to ${input.productName} (${input.price}).`,
      ...(input.endsOn
        ? [
            `It ends on ${input.endsOn}: nothing is charged for a period that begins on or after it.`,
          ]
        : []),
      '',
      `See what it costs and start it here: ${input.link}`,
      '',
      `The invitation is open until ${input.expiresOn}. If you did not expect it, ignore this email.`,
    ].join('\n'),
  };
}

/** POST /api/package-invite send-package-invite. */
export async function sendPackageInvite(
  deps: InviteDeps,
  seller: Seller,
  input: InviteInput,
  now = new Date(),
): Promise<{ invite: PendingInvite; message: string }> {
  const { db } = deps;
  const item = await rosterItemOrNotFound(db, seller, input.rosterId);
  const action: InviteActionType = item.externalPayments
    ? 'start-customer-subscription-for-external-payment'
    : input.paymentMethodId
      ? 'start-stripe-subscription'
      : 'create-customer-subscription-invite';
  // Paid outside the platform needs no processor; a card charged now or an emailed payment
  // link does (decision 0061).
  if (action !== 'start-customer-subscription-for-external-payment') {
    requirePaymentProcessing(deps.processor);
  }
  const offer = await offerOf(db, seller.orgId, input, now);
  const { product, coupon, priceMinor, today } = offer;
  const base = {
    orgId: seller.orgId,
    customerUserId: item.userId,
    productId: product.id,
    couponId: coupon?.id ?? null,
    priceMinor,
    startDate: input.startDate,
    action,
    createdByUserId: seller.userId,
  };

  if (action === 'start-customer-subscription-for-external-payment') {
    if (input.paymentMethodId) throw new RuleBroken(packageInviteMessages.externalNoCard);
    // Recorded as paid outside the platform: the figures only give the next billing date.
    const totals = totalInvoice({
      product: totalingProductOf(product),
      priceMinor,
      coupon: null,
      today,
      startDate: input.startDate,
      prorationMode: 'charge-prorated',
    });
    const row = await db.transaction(async (tx) => {
      const subscription =
        product.type === 'recurring'
          ? await repo.insertSubscription(tx, {
              orgId: seller.orgId,
              customerUserId: item.userId,
              productId: product.id,
              productName: product.name,
              couponId: coupon?.id ?? null,
              priceMinor: priceMinor ?? product.priceMinor,
              status: input.startDate && input.startDate > today ? 'scheduled' : 'active',
              startedOn: input.startDate ?? today,
              nextBillingDate: totals.nextBillingDate,
              externalPayments: true,
            })
          : null;
      if (subscription) {
        await notifyChange(tx, {
          collection: 'purchases',
          orgId: seller.orgId,
          ownerIds: [item.userId],
        });
      }
      return invites.insertInvite(tx, {
        ...base,
        status: 'accepted',
        expiresAt: now,
        answeredAt: now,
        subscriptionId: subscription?.id ?? null,
      });
    });
    return {
      invite: await viewOne(db, seller.orgId, row.id, now),
      message: `${product.name} is recorded for ${item.firstName} ${item.lastName}, paid outside the platform.`,
    };
  }

  if (action === 'start-stripe-subscription') {
    const { invoiceId } = await totalCharge(
      db,
      {
        orgId: seller.orgId,
        actorUserId: seller.userId,
        customerUserId: item.userId,
        productId: product.id,
        couponId: coupon?.id ?? null,
        paymentMethodId: input.paymentMethodId,
        priceMinor,
        startDate: input.startDate,
        prorationMode: 'charge-prorated',
        // An invitation to a punch card gives its credits once paid (decision 0062).
        issuePunchCard: true,
      },
      now,
    );
    const result = await runCharge(
      db,
      deps.processor,
      { orgId: seller.orgId, invoiceId, ...(deps.jobs ? { jobs: deps.jobs } : {}) },
      now,
    );
    if (!result.valid)
      throw new RuleBroken(`${chargeFlowMessages.chargeInvalid} ${result.message}`);
    const row = await invites.insertInvite(db, {
      ...base,
      status: 'accepted',
      expiresAt: now,
      answeredAt: now,
      invoiceId,
      subscriptionId: result.subscriptionId,
    });
    return {
      invite: await viewOne(db, seller.orgId, row.id, now),
      message: result.recurring
        ? chargeFlowMessages.subscriptionCreated
        : chargeFlowMessages.paymentProcessed,
    };
  }

  if (!item.email) throw new RuleBroken(packageInviteMessages.noEmail);
  const to = item.email;
  const expiresAt = new Date(now.getTime() + PRODUCT_INVITE_DAYS * DAY_MS);
  const orgLabel = await invites.orgLabel(db, seller.orgId);
  const row = await db.transaction(async (tx) => {
    const invite = await invites.insertInvite(tx, { ...base, status: 'pending', expiresAt });
    // Queued in the transaction that made the invitation: both exist, or neither.
    await deps.mailer.send(
      inviteEmail({
        to,
        orgId: seller.orgId,
        orgLabel,
        productName: product.name,
        price: formatMoney(priceMinor ?? product.priceMinor, DEFAULT_CURRENCY),
        link: `${deps.publicUrl}/dashboard-customer/${seller.orgId}/invites/${invite.id}`,
        expiresOn: expiresAt.toISOString().slice(0, 10),
      }),
      { tx },
    );
    return invite;
  });
  return {
    invite: await viewOne(db, seller.orgId, row.id, now),
    message: packageInviteMessages.sent(to),
  };
}

async function views(
  db: Db,
  orgId: string,
  rows: Awaited<ReturnType<typeof invites.invitesOf>>,
  now: Date,
): Promise<PendingInvite[]> {
  const names = await rosterNamesOf(
    db,
    orgId,
    rows.map((r) => r.invite.customerUserId),
  );
  return rows.map(({ invite, productName, productPriceMinor, couponName }) => ({
    id: invite.id,
    rosterId: names.get(invite.customerUserId)?.rosterId ?? null,
    customerName: names.get(invite.customerUserId)?.name ?? 'A former customer',
    productName,
    priceMinor: invite.priceMinor ?? productPriceMinor,
    startDate: invite.startDate,
    couponName,
    action: invite.action,
    status: statusOf(invite, now),
    createdAt: invite.createdAt.toISOString(),
    expiresAt: invite.expiresAt.toISOString(),
  }));
}

async function viewOne(db: Db, orgId: string, inviteId: string, now: Date) {
  const rows = await invites.invitesOf(db, orgId, {
    statuses: ['pending', 'accepted', 'cancelled'],
  });
  const [view] = await views(
    db,
    orgId,
    rows.filter((r) => r.invite.id === inviteId),
    now,
  );
  if (!view) throw new NotFound('There is no such invitation.');
  return view;
}

/** POST /api/package-invite get-pending-invites: open invitations (of one customer, or all). */
export async function pendingInvites(
  db: Db,
  seller: Seller,
  rosterId: string | null,
  now = new Date(),
): Promise<PendingInvite[]> {
  const customerUserId = rosterId
    ? (await rosterItemOrNotFound(db, seller, rosterId)).userId
    : undefined;
  const rows = await invites.invitesOf(db, seller.orgId, {
    statuses: ['pending'],
    ...(customerUserId ? { customerUserId } : {}),
  });
  return views(db, seller.orgId, rows, now);
}

/** POST /api/package-invite cancel-package-invite: an open invitation stops working. */
export async function cancelPackageInvite(
  db: Db,
  seller: Seller,
  inviteId: string,
  now = new Date(),
): Promise<PendingInvite> {
  await db.transaction(async (tx) => {
    const invite = await invites.lockInvite(tx, inviteId);
    if (!invite || invite.orgId !== seller.orgId)
      throw new NotFound('There is no such invitation.');
    if (invite.status !== 'pending') throw new RuleBroken(packageInviteMessages.notPending);
    await invites.updateInvite(tx, inviteId, { status: 'cancelled', answeredAt: now });
  });
  return viewOne(db, seller.orgId, inviteId, now);
}

/** Who answers an invitation: the signed-in account it was made for. */
export type Invitee = { userId: string; switchedFrom: string | null };

/**
 * The invitation as its customer may read it: another account's answers 404 (whether it exists
 * is not said). A child with a confirmed guardian pays only in a session the guardian switched
 * into (spec §6 "a guardian buys for a child by switching account").
 */
async function inviteOf(db: Db, invitee: Invitee, inviteId: string) {
  const invite = await invites.findInvite(db, inviteId);
  if (!invite || invite.customerUserId !== invitee.userId) {
    throw new NotFound('There is no such invitation.');
  }
  if (!invitee.switchedFrom && (await hasConfirmedGuardians(db, invitee.userId))) {
    throw new Forbidden('A parent or guardian answers this: switch to this account from theirs.');
  }
  return invite;
}

/** POST /api/package-invite get-package-invite: the product, price, discount and first charge. */
export async function customerInvite(
  deps: InviteDeps,
  invitee: Invitee,
  inviteId: string,
  now = new Date(),
): Promise<CustomerInvite> {
  const { db } = deps;
  const invite = await inviteOf(db, invitee, inviteId);
  const product = await repo.findProduct(db, invite.orgId, invite.productId);
  if (!product) throw new NotFound('There is no such invitation.');
  const coupon = invite.couponId ? await repo.findCoupon(db, invite.orgId, invite.couponId) : null;
  const status = statusOf(invite, now);
  const totals = await previewTotals(
    db,
    {
      orgId: invite.orgId,
      customerUserId: invite.customerUserId,
      productId: invite.productId,
      couponId: invite.couponId,
      priceMinor: invite.priceMinor,
      // The invitation's price is staff's agreement (variable pricing, an imported discount).
      agreedPrice: invite.priceMinor !== null,
      // A start date that has passed meanwhile starts on payment instead.
      startDate:
        invite.startDate && invite.startDate > (await orgToday(db, invite.orgId, now))
          ? invite.startDate
          : null,
      prorationMode: 'charge-prorated',
    },
    now,
  ).catch((error: unknown) => {
    // An archived product or a used-up coupon: the invitation can no longer be paid.
    if (error instanceof RuleBroken && status === 'pending') throw error;
    return null;
  });
  const cards = await repo.listPaymentMethods(db, invite.orgId, invite.customerUserId);
  return {
    id: invite.id,
    orgId: invite.orgId,
    orgName: await invites.orgLabel(db, invite.orgId),
    status,
    expiresAt: invite.expiresAt.toISOString(),
    product: productView(product),
    couponName: coupon ? couponView(coupon).name : null,
    startDate: invite.startDate,
    endDate: invite.endDate,
    totals: totals ?? {
      total: 0,
      subtotal: 0,
      couponDiscount: 0,
      recurringFinalAmount: 0,
      nextBillingDate: null,
      isProrated: false,
      prorationDescription: null,
      lineItems: [],
    },
    currency: DEFAULT_CURRENCY,
    processor: deps.processor.kind,
    paymentMethods: cards.map((c) => ({
      id: c.id,
      brand: c.brand,
      last4: c.last4,
      expMonth: c.expMonth,
      expYear: c.expYear,
    })),
  };
}

/**
 * POST /api/package-invite accept-package-invite: the customer pays, and the subscription starts
 * as invited. One invoice per invitation (kept on it under a lock), charged once however often
 * this is sent (decision 0055); a declined card leaves the invitation open for another card.
 */
export async function acceptPackageInvite(
  deps: InviteDeps,
  invitee: Invitee,
  input: {
    inviteId: string;
    paymentMethodId: string | null;
    card: CardInput | null;
    processorPaymentMethodId: string | null;
  },
  now = new Date(),
): Promise<AcceptInviteResponse> {
  const { db } = deps;
  const first = await inviteOf(db, invitee, input.inviteId);
  if (first.status === 'accepted' && first.invoiceId) {
    return alreadyAccepted(db, first.orgId, first.invoiceId, first.subscriptionId);
  }
  const processor = requirePaymentProcessing(deps.processor);
  // The card first (a call to the processor, outside any transaction).
  const newCard = newCardOf(input);
  let paymentMethodId = input.paymentMethodId;
  if (paymentMethodId) {
    const own = await repo.findPaymentMethod(
      db,
      first.orgId,
      first.customerUserId,
      paymentMethodId,
    );
    if (!own) throw new RuleBroken(chargeMessages.paymentMethodUnknown);
  } else if (newCard) {
    const kept = await keepNewCard(
      db,
      processor,
      { orgId: first.orgId, userId: first.customerUserId },
      newCard,
    );
    if (!kept.ok) return { valid: false, message: kept.message };
    paymentMethodId = kept.paymentMethodId;
  } else {
    throw new RuleBroken(chargeMessages.paymentMethodUnknown);
  }

  const invoiceId = await db.transaction(async (tx) => {
    const invite = await invites.lockInvite(tx, first.id);
    if (!invite) throw new NotFound('There is no such invitation.');
    const status = statusOf(invite, now);
    if (status === 'accepted' && invite.invoiceId) return invite.invoiceId;
    if (status === 'expired') throw new RuleBroken(packageInviteMessages.expired);
    if (status !== 'pending') throw new RuleBroken(packageInviteMessages.notPending);
    const today = await orgToday(tx, invite.orgId, now);
    // An agreed end (imported, decision 0073) that has come: nothing is left to start — also
    // for an invitation paid again after a refused card (the charge checks its invoice too).
    if (invite.endDate && invite.endDate <= today)
      throw new RuleBroken(packageInviteMessages.endPassed);
    if (invite.invoiceId) {
      // Paid again after a refused card: the same invoice, with the card chosen now.
      await repo.setOpenInvoicePaymentMethod(tx, invite.orgId, invite.invoiceId, paymentMethodId);
      return invite.invoiceId;
    }
    const { invoiceId: created } = await totalCharge(
      tx,
      {
        orgId: invite.orgId,
        actorUserId: invitee.switchedFrom ?? invitee.userId,
        customerUserId: invite.customerUserId,
        productId: invite.productId,
        couponId: invite.couponId,
        paymentMethodId,
        priceMinor: invite.priceMinor,
        agreedPrice: invite.priceMinor !== null,
        startDate: invite.startDate && invite.startDate > today ? invite.startDate : null,
        endsOn: invite.endDate,
        prorationMode: 'charge-prorated',
        // An invitation to a punch card gives its credits once paid (decision 0062).
        issuePunchCard: true,
      },
      now,
    );
    await invites.updateInvite(tx, invite.id, { invoiceId: created });
    return created;
  });

  const result = await runCharge(
    db,
    deps.processor,
    { orgId: first.orgId, invoiceId, ...(deps.jobs ? { jobs: deps.jobs } : {}) },
    now,
  );
  if (!result.valid) return { valid: false, message: result.message };
  // Money was taken: the invitation is answered, even if staff cancelled it meanwhile.
  await invites.updateInvite(db, first.id, {
    status: 'accepted',
    answeredAt: now,
    subscriptionId: result.subscriptionId,
  });
  return { valid: true, subscriptionId: result.subscriptionId, totals: result.totals };
}

async function alreadyAccepted(
  db: Db,
  orgId: string,
  invoiceId: string,
  subscriptionId: string | null,
): Promise<AcceptInviteResponse> {
  const invoice = await repo.findInvoice(db, orgId, invoiceId);
  if (!invoice) throw new NotFound('There is no such invitation.');
  return { valid: true, subscriptionId, totals: invoice.totals };
}
