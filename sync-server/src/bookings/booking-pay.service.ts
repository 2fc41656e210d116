import type { FastifyRequest } from 'fastify';
import {
  bookingPayMessages,
  type BookingPayBody,
  type BookingPayResponse,
} from '@platform/schema/bookings/booking-pay.zod';
import { bookingMessages, paymentFor } from '@platform/schema/bookings/booking.rules';
import { orgFormat } from '@platform/schema/organizations/org-format';
import { dayKeyOf, orgTimeZone } from '@platform/schema/time-tracking/org-calendar';
import type { PaymentProcessor } from '../adapters/payments/port.ts';
import type { Db } from '../db/open-database.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { chargeBookingPayment } from '../payments/booking-payments.service.ts';
import { holdingsOf } from '../payments/credits.service.ts';
import { newCardOf } from '../payments/new-card.ts';
import { requireBuyer, type Buyer } from '../payments/shop.service.ts';
import { Forbidden, RuleBroken } from '../plugins/domain-errors.ts';
import { requireSession } from '../plugins/session.ts';
import { actorOf } from '../sync/actor.ts';
import { placeToPayFor } from './bookings.repository.ts';

/**
 * The payer of a place: a customer in the organisation's app buying as the Shop's buyers do
 * (a child with guardians does not pay in their own session), for themself or a child they
 * may act for — the family the booking write path accepts (actor.ts, decision 0035).
 */
export async function requireBookingPayer(
  db: Db,
  request: FastifyRequest,
  body: { orgId: string; customerUserId: string },
): Promise<Buyer> {
  const payer = await requireBuyer(db, request, body.orgId);
  const actor = await actorOf(db, await requireSession(request));
  if (!actor.familyUserIds.includes(body.customerUserId))
    throw new Forbidden(bookingPayMessages.notFamily);
  return payer;
}

/**
 * POST /api/bookings/pay (decision 0070): what the place costs is the server's, read now — its
 * price, and only when nothing the person holds pays for it (a membership or a credit is used
 * by the booking itself); a class time that has begun, is cancelled or full is not paid for.
 * Then the payment is charged once (payments/booking-payments.service.ts); the device writes
 * the booking request when it is paid, and the decision uses the payment.
 */
export async function payForBooking(
  deps: { db: Db; processor: PaymentProcessor; jobs?: Pick<JobQueue, 'enqueue'> | null },
  payer: Buyer,
  body: BookingPayBody,
  now = new Date(),
): Promise<BookingPayResponse> {
  const { db } = deps;
  const place = await placeToPayFor(db, payer.orgId, {
    occurrenceId: body.occurrenceId,
    appointmentTypeId: body.appointment?.typeId ?? null,
  });
  if (!place) throw new RuleBroken(bookingMessages.noSuchClass);
  const startsAt = body.appointment ? new Date(body.appointment.startsAt) : place.startsAt;
  if (!startsAt || startsAt.getTime() <= now.getTime())
    throw new RuleBroken(bookingMessages.classStarted);
  if (place.status === 'cancelled') throw new RuleBroken(bookingMessages.classCancelled);
  if (place.full) throw new RuleBroken(bookingMessages.full);
  const holdings = await db.transaction((tx) =>
    holdingsOf(tx, {
      orgId: payer.orgId,
      customerUserId: body.customerUserId,
      groupIds: place.terms.punchCardGroupIds,
      today: dayKeyOf(now.getTime(), orgTimeZone(place.terms.timeZone)),
    }),
  );
  const payment = paymentFor(place.terms, holdings);
  if (payment.kind !== 'pay') throw new RuleBroken(bookingPayMessages.nothingToPay);
  const when = orgFormat(place.terms.timeZone).dateTime(startsAt.getTime());
  return chargeBookingPayment(
    deps,
    payer,
    {
      checkoutId: body.checkoutId,
      bookingId: body.bookingId,
      customerUserId: body.customerUserId,
      occurrenceId: body.occurrenceId,
      appointmentTypeId: body.appointment?.typeId ?? null,
      amountMinor: payment.priceMinor,
      description: `${place.title} — ${when}`,
    },
    { paymentMethodId: body.paymentMethodId, newCard: newCardOf(body) },
    now,
  );
}
