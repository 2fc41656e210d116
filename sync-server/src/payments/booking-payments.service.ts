import {
  bookingPayMessages,
  UNUSED_BOOKING_PAYMENT_MS,
  type BookingPayOptions,
  type BookingPayResponse,
} from '@platform/schema/bookings/booking-pay.zod';
import { DEFAULT_CURRENCY } from '@platform/schema/payments/money';
import { requirePaymentProcessing, type LivePaymentProcessor } from '../adapters/payments/none.ts';
import type { CardToSave, PaymentProcessor } from '../adapters/payments/port.ts';
import type { Db, Tx } from '../db/open-database.ts';
import { isUniqueViolation } from '../db/postgres-errors.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { NotFound, RuleBroken } from '../plugins/domain-errors.ts';
import { notifyChange } from '../sync/change-feed.ts';
import { CHARGING_LEASE_MS, chargeMessages } from './charge.service.ts';
import { keepNewCard } from './new-card.ts';
import * as repo from './booking-payments.repository.ts';
import { findPaymentMethod, listPaymentMethods } from './payments.repository.ts';
import type { Buyer } from './shop.service.ts';

/**
 * Pay at booking, the money side (decision 0070). The booking side (bookings/) decides what a
 * place costs and whether a payment pays for it; here a payment is charged once — whatever
 * doubles or repeats the request, as the charge flow does (decision 0055: claim the row in a
 * short transaction, ask the processor outside it with `{id}:{attempt}`, write the outcome) —
 * used once, and refunded once through the job queue.
 */

type BookingOrder = {
  checkoutId: string;
  bookingId: string;
  customerUserId: string;
  occurrenceId: string;
  /** The appointment type paid for; null for a class or event. */
  appointmentTypeId: string | null;
  amountMinor: number;
  description: string;
};

/** The payers' devices hear of a change to their payments (collection `booking-payments`). */
async function announce(tx: Tx, rows: ReadonlyArray<{ orgId: string; payerUserId: string }>) {
  const byOrg = new Map<string, Set<string>>();
  for (const row of rows)
    byOrg.set(row.orgId, (byOrg.get(row.orgId) ?? new Set()).add(row.payerUserId));
  for (const [orgId, payers] of byOrg)
    await notifyChange(tx, { collection: 'booking-payments', orgId, ownerIds: [...payers] });
}

/** A payment's row changed and announced, in one transaction. */
async function changePayment(
  tx: Tx,
  row: { id: string; orgId: string; payerUserId: string },
  values: Parameters<typeof repo.updateBookingPayment>[2],
) {
  await repo.updateBookingPayment(tx, row.id, values);
  await announce(tx, [row]);
}

/** An attempt still charging after this long was abandoned: the sweep asks it again. */
const STALE_CHARGING_MS = 60 * 60_000;

export type CardChoice = { paymentMethodId: string | null; newCard: CardToSave | null };

type Notices = {
  jobs?: Pick<JobQueue, 'enqueue'> | null;
  log?: { error: (context: object, message: string) => void };
};

export async function chargeBookingPayment(
  deps: { db: Db; processor: PaymentProcessor } & Notices,
  payer: Buyer,
  order: BookingOrder,
  card: CardChoice,
  now = new Date(),
): Promise<BookingPayResponse> {
  const { db } = deps;
  const processor = requirePaymentProcessing(deps.processor);
  const existing = await repo.findBookingPayment(db, payer.orgId, order.checkoutId);
  if (existing) {
    // Only this payer's own checkout for this very place.
    if (existing.payerUserId !== payer.userId) throw new NotFound('There is no such payment.');
    if (
      existing.bookingId !== order.bookingId ||
      existing.customerUserId !== order.customerUserId ||
      existing.occurrenceId !== order.occurrenceId ||
      existing.appointmentTypeId !== order.appointmentTypeId
    )
      throw new RuleBroken(bookingPayMessages.changed);
    if (existing.status === 'paid' || existing.status === 'used') return paidAnswer(existing);
    if (existing.status !== 'charging' && existing.status !== 'declined')
      throw new RuleBroken(bookingPayMessages.changed);
  }

  // The card, unless an attempt is still unanswered: that one is asked again exactly as it was.
  let paymentMethodId: string | null = null;
  const unanswered = existing?.status === 'charging';
  if (!unanswered) {
    if (card.paymentMethodId) {
      const own = await findPaymentMethod(db, payer.orgId, payer.userId, card.paymentMethodId);
      if (!own || own.removedAt) throw new RuleBroken(chargeMessages.paymentMethodUnknown);
      paymentMethodId = own.id;
    } else if (card.newCard) {
      const kept = await keepNewCard(
        db,
        processor,
        { orgId: payer.orgId, userId: payer.userId },
        card.newCard,
      );
      if (!kept.ok) return { paid: false, message: kept.message };
      paymentMethodId = kept.paymentMethodId;
    } else throw new RuleBroken(chargeMessages.paymentMethodUnknown);
  }

  // 1. Claim the payment.
  const claim = await db.transaction(async (tx) => {
    if (!existing) {
      try {
        await tx.transaction(async (inner) =>
          repo.insertBookingPayment(inner as Tx, {
            id: order.checkoutId,
            orgId: payer.orgId,
            bookingId: order.bookingId,
            payerUserId: payer.userId,
            customerUserId: order.customerUserId,
            occurrenceId: order.occurrenceId,
            appointmentTypeId: order.appointmentTypeId,
            description: order.description,
            amountMinor: order.amountMinor,
            currency: DEFAULT_CURRENCY,
            paymentMethodId,
            status: 'charging',
            chargingSince: now,
            createdByUserId: payer.actorUserId,
          }),
        );
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        // Another checkout already pays for this place (or this one, sent twice at once).
        const same = await repo.findBookingPayment(tx as Db, payer.orgId, order.checkoutId);
        if (same) return { kind: 'in-progress' as const };
        throw new RuleBroken(bookingPayMessages.alreadyPaid);
      }
      return {
        kind: 'charge' as const,
        row: await repo.lockBookingPayment(tx, payer.orgId, order.checkoutId),
      };
    }
    const row = await repo.lockBookingPayment(tx, payer.orgId, order.checkoutId);
    if (!row) throw new NotFound('There is no such payment.');
    if (row.status === 'paid' || row.status === 'used') return { kind: 'paid' as const, row };
    if (
      row.status === 'charging' &&
      row.chargingSince &&
      now.getTime() - row.chargingSince.getTime() < CHARGING_LEASE_MS
    )
      return { kind: 'in-progress' as const };
    if (row.status !== 'charging' && row.status !== 'declined')
      throw new RuleBroken(bookingPayMessages.changed);
    // Declined before: paid again with the card chosen now and at today's price, under the
    // next attempt's key. An unanswered attempt keeps its card and amount: the same question.
    const retried =
      row.status === 'declined'
        ? {
            ...row,
            paymentMethodId,
            amountMinor: order.amountMinor,
            description: order.description,
          }
        : row;
    await repo.updateBookingPayment(tx, row.id, {
      status: 'charging',
      chargingSince: now,
      paymentMethodId: retried.paymentMethodId,
      amountMinor: retried.amountMinor,
      description: retried.description,
    });
    return { kind: 'charge' as const, row: retried };
  });
  if (claim.kind === 'paid') return paidAnswer(claim.row);
  if (claim.kind === 'in-progress') throw new RuleBroken(bookingPayMessages.inProgress);
  if (!claim.row) throw new NotFound('There is no such payment.');
  return settleAttempt({ db, processor, jobs: deps.jobs ?? null }, claim.row, now);
}

/**
 * Steps 2 and 3 of a claimed attempt: ask the processor, outside any transaction, and write
 * what it answered. A throw leaves the row charging with its attempt: asked again after the
 * lease (a retry, or the sweep), it is the same question under the same key.
 */
async function settleAttempt(
  deps: { db: Db; processor: LivePaymentProcessor } & Notices,
  row: repo.BookingPaymentRow,
  now: Date,
): Promise<BookingPayResponse> {
  const { db, processor } = deps;
  const method = row.paymentMethodId
    ? await findPaymentMethod(db, row.orgId, row.payerUserId, row.paymentMethodId)
    : null;
  if (!method) throw new RuleBroken(chargeMessages.paymentMethodUnknown);

  const outcome = await processor.charge({
    orgId: row.orgId,
    userId: row.payerUserId,
    idempotencyKey: `booking-payment:${row.id}:${row.attempt}`,
    processorPaymentMethodId: method.processorPaymentMethodId,
    amountMinor: row.amountMinor,
    currency: row.currency,
    description: row.description,
  });

  if (outcome.status === 'succeeded') {
    await db.transaction(async (tx) => {
      await changePayment(tx, row, {
        status: 'paid',
        paidAt: now,
        chargingSince: null,
        processorChargeId: outcome.chargeId,
        failureMessage: null,
      });
      // The receipt, queued only if the payment is kept.
      await deps.jobs?.enqueue(
        'booking-payment-notice',
        { orgId: row.orgId, paymentId: row.id, kind: 'paid' },
        { tx },
      );
    });
    return { paid: true, amountMinor: row.amountMinor, currency: row.currency };
  }
  await repo.updateBookingPayment(db, row.id, {
    status: 'declined',
    chargingSince: null,
    attempt: row.attempt + 1,
    failureMessage: outcome.message,
  });
  return { paid: false, message: outcome.message };
}

/** The payer's cards, for the pay dialog (paying needs the network, as buying does). */
export async function payerCards(
  db: Db,
  processor: PaymentProcessor,
  payer: Buyer,
): Promise<BookingPayOptions> {
  const rows = await listPaymentMethods(db, payer.orgId, payer.userId);
  return {
    processor: processor.kind,
    paymentMethods: rows.map((c) => ({
      id: c.id,
      brand: c.brand,
      last4: c.last4,
      expMonth: c.expMonth,
      expYear: c.expYear,
    })),
  };
}

const paidAnswer = (row: repo.BookingPaymentRow): BookingPayResponse => ({
  paid: true,
  amountMinor: row.amountMinor,
  currency: row.currency,
});

type PaymentForPlace = { ok: true } | { ok: false; returned: boolean };

/**
 * In a booking's decision (its push's transaction): the payment made for this booking pays for
 * its place — once. A payment already owed back (the sweep found it unused for a day) does not.
 */
export async function usePaymentFor(
  tx: Tx,
  booking: { id: string; orgId: string; customerUserId: string; occurrenceId: string },
  /** What the place costs now, and the appointment type it is of (null: a class or event). */
  place: { priceMinor: number; appointmentTypeId: string | null },
  now: Date,
): Promise<PaymentForPlace> {
  const row = await repo.lockLatestPaymentOf(tx, booking.orgId, booking.id);
  // This person's place on this very class time — or appointment of this type — and at least
  // what it costs now (a price raised after paying is not paid for: refused, money back).
  if (
    !row ||
    row.customerUserId !== booking.customerUserId ||
    row.occurrenceId !== booking.occurrenceId ||
    row.appointmentTypeId !== place.appointmentTypeId ||
    row.amountMinor < place.priceMinor
  )
    return { ok: false, returned: false };
  if (row.status === 'paid') {
    await changePayment(tx, row, { status: 'used', usedAt: now });
    return { ok: true };
  }
  return { ok: false, returned: row.status === 'refund-due' || row.status === 'refunded' };
}

/** Whether a payment for this booking is held and not yet used (a paid request never waits). */
export async function holdsPaymentFor(tx: Tx, orgId: string, bookingId: string) {
  return (await repo.lockLatestPaymentOf(tx, orgId, bookingId))?.status === 'paid';
}

/**
 * Money owed back for these bookings, in the transaction that decided so: a payment no place
 * was taken with (`paid`: refused, full) and/or one whose place was given up (`used`). The
 * refund itself is a job, queued in the same transaction (or found by the sweep).
 */
export async function owePaymentsBack(
  tx: Tx,
  jobs: Pick<JobQueue, 'enqueue'> | null,
  orgId: string,
  bookingIds: readonly string[],
  from: ReadonlyArray<'paid' | 'used'>,
) {
  const owed = await repo.markRefundDue(tx, orgId, bookingIds, from);
  await announce(tx, owed);
  if (jobs)
    for (const { id } of owed) await jobs.enqueue('booking-refund', { paymentId: id }, { tx });
  return owed.length;
}

/**
 * How long a refund run's claim stands: longer than any processor call (the Stripe SDK waits
 * up to 80 s and retries twice). A run that died leaves the refund to the hourly sweep after it.
 */
const REFUND_CLAIM_MS = 10 * 60_000;

/**
 * The refund job: gives back a payment owed back, once — the processor's idempotency key is
 * the payment's, so a job run twice (a retry, the sweep) asks the same question. A refund the
 * processor will not make is recorded with its reason for staff to settle.
 *
 * A run claims the payment before it asks the processor (`charging_since`: a processor call in
 * flight, for a refund as for a charge), and writes the answer only while its claim stands — so
 * two runs never ask at once, and a refusal is written only by the run that was refused: while
 * a run waits on the processor the payment stays owed back, and staff cannot mark it refunded
 * outside the platform (refunds-to-settle.service.ts acts on refused ones only). Found by the
 * review of refunds to settle: a late "refunded" over a refund staff had paid back by hand.
 */
export async function refundBookingPayment(
  deps: { db: Db; processor: PaymentProcessor } & Notices,
  paymentId: string,
  now = new Date(),
): Promise<'refunded' | 'refused' | 'nothing'> {
  const [row] = await deps.db.transaction(async (tx) => {
    const found = await repo.lockBookingPaymentById(tx, paymentId);
    if (!found || found.status !== 'refund-due') return [];
    // Another run is asking the processor: it writes the answer.
    if (found.chargingSince && now.getTime() - found.chargingSince.getTime() < REFUND_CLAIM_MS)
      return [];
    await repo.updateBookingPayment(tx, found.id, { chargingSince: now });
    return [found];
  });
  if (!row) return 'nothing';
  /** The answer, written only while this run's claim stands (else nothing: a newer run's). */
  const settle = (values: Parameters<typeof repo.updateBookingPayment>[2]) =>
    deps.db.transaction(async (tx) => {
      const current = await repo.lockBookingPaymentById(tx, row.id);
      if (current?.status !== 'refund-due' || current.chargingSince?.getTime() !== now.getTime())
        return false;
      await changePayment(tx, row, { ...values, chargingSince: null });
      if (values.status === 'refunded')
        await deps.jobs?.enqueue(
          'booking-payment-notice',
          { orgId: row.orgId, paymentId: row.id, kind: 'refunded' },
          { tx },
        );
      return true;
    });
  if (!row.processorChargeId) {
    const written = await settle({
      status: 'refund-refused',
      failureMessage: 'No charge was recorded for this payment.',
    });
    return written ? 'refused' : 'nothing';
  }
  const outcome = await requirePaymentProcessing(deps.processor).refund({
    orgId: row.orgId,
    chargeId: row.processorChargeId,
    amountMinor: row.amountMinor,
    idempotencyKey: `booking-refund:${row.id}`,
  });
  if (outcome.status === 'refunded') {
    const written = await settle({
      status: 'refunded',
      processorRefundId: outcome.refundId,
      refundedAt: now,
    });
    // The claim outlived its lease and the payment moved on: the processor did refund, which
    // staff must hear of (it may have been paid back another way too).
    if (!written)
      deps.log?.error(
        { paymentId: row.id, refundId: outcome.refundId },
        'a booking payment was refunded by the processor after its refund run lost its claim',
      );
    return written ? 'refunded' : 'nothing';
  }
  const written = await settle({ status: 'refund-refused', failureMessage: outcome.message });
  return written ? 'refused' : 'nothing';
}

/**
 * The sweep (hourly): a payment no booking used within a day is owed back, and every payment
 * owed back has its refund job asked again. Answers how many refund jobs were queued.
 */
export async function queueBookingRefunds(
  db: Db,
  jobs: Pick<JobQueue, 'enqueue'>,
  options: { processor: PaymentProcessor; now?: Date; limit?: number },
): Promise<number> {
  const { processor, now = new Date(), limit = 500 } = options;
  // An attempt whose answer never came (a timeout, a crash) and that nobody asked again within
  // the hour: asked now under its own key; charged, it is owed back — the payer never heard
  // it was paid, so no request of theirs will use it.
  if (processor.kind !== 'none') {
    const stale = await db.transaction((tx) =>
      repo.claimStaleCharging(tx, new Date(now.getTime() - STALE_CHARGING_MS), now, limit),
    );
    for (const row of stale) {
      // No receipt: the payer never heard this was paid, and it goes straight back.
      const answer = await settleAttempt(
        { db, processor: requirePaymentProcessing(processor) },
        row,
        now,
      ).catch(() => null);
      if (answer?.paid)
        await db.transaction(async (tx) =>
          announce(tx, await repo.markRefundDueById(tx, row.id, ['paid'])),
        );
    }
  }
  await db.transaction(async (tx) =>
    announce(
      tx,
      await repo.markUnusedRefundDue(
        tx,
        new Date(now.getTime() - UNUSED_BOOKING_PAYMENT_MS),
        limit,
      ),
    ),
  );
  const due = await repo.refundDuePayments(db, limit);
  for (const { id } of due) await jobs.enqueue('booking-refund', { paymentId: id });
  return due.length;
}
