import { creditBalances, type CreditDoc } from '@platform/schema/payments/credit-doc.zod';
import type { PurchaseDoc } from '@platform/schema/payments/purchase-docs.zod';
import { formatMoney } from '@platform/schema/payments/money';
import {
  customerMayCancel,
  isActive,
  paymentFor,
  type Holdings,
} from '@platform/schema/bookings/booking.rules';
import type { BookingDoc } from '@platform/schema/bookings/booking.zod';
import type { ClassDoc, OccurrenceDoc } from '@platform/schema/schedule/schedule.zod';

/**
 * What My calendar shows, from the device's replica alone (issue 16): the class times ahead,
 * the family's bookings with the server's verdicts, and — before anyone asks the server — what
 * a booking would cost. Pure, so the page is a rendering of these.
 */

export const bookingTexts = {
  pending: 'Pending',
  pendingOffline: 'Pending — sent when you are back online',
  pendingOnline: 'Pending — waiting for the organization’s answer',
  booked: 'Booked',
  waitlisted: 'On the waitlist',
  refused: 'Not booked',
  cancelled: 'Cancelled',
  attended: 'Attended',
  noShow: 'Missed',
  full: 'Full',
  free: 'Free',
  joinWaitlist: 'Join the waitlist',
  offline: 'You are offline. You can still book and cancel: it is sent when you are back online.',
  booking: 'Booking request saved. It is confirmed when the organization answers.',
  waitlistSaved: 'Waitlist request saved. You are told when a place frees up.',
  cancelSaved: 'Cancellation saved.',
} as const;

export type PlacesLabel = { text: string; full: boolean };

export function placesLabel(
  occurrence: Pick<OccurrenceDoc, 'capacity' | 'bookedCount' | 'waitlistCount'>,
): PlacesLabel {
  const left = occurrence.capacity - occurrence.bookedCount;
  if (left <= 0)
    return {
      text:
        occurrence.waitlistCount > 0
          ? `Full — ${occurrence.waitlistCount} waiting`
          : bookingTexts.full,
      full: true,
    };
  return { text: left === 1 ? '1 place left' : `${left} places left`, full: false };
}

/** Class times not yet started and not cancelled, in time order. */
export function upcoming(
  occurrences: readonly OccurrenceDoc[],
  now: number,
  until: number,
): OccurrenceDoc[] {
  return occurrences
    .filter(
      (o) =>
        o.status === 'scheduled' && Date.parse(o.startsAt) > now && Date.parse(o.startsAt) < until,
    )
    .sort((a, b) => a.startsAt.localeCompare(b.startsAt) || a.id.localeCompare(b.id));
}

/** What a person holds that pays for classes, as the device knows it. */
export function holdingsOf(
  personId: string,
  purchases: readonly PurchaseDoc[],
  credits: readonly CreditDoc[],
  today: string,
): Holdings {
  const inForce = new Set(['active', 'past-due', 'cancel-at-period-end', 'scheduled']);
  return {
    activeProductIds: new Set(
      purchases
        .filter(
          (p) => p.customerUserId === personId && inForce.has(p.status) && p.startedOn <= today,
        )
        .map((p) => p.productId),
    ),
    creditsByGroup: new Map(
      creditBalances(credits.filter((c) => c.customerUserId === personId)).map((b) => [
        b.groupId,
        b.balance,
      ]),
    ),
  };
}

/** What booking would cost this person, in words (the server decides; this is the promise). */
export function paymentHint(
  terms: Pick<ClassDoc, 'priceMinor' | 'entitlingProductIds' | 'punchCardGroupIds' | 'currency'>,
  holdings: Holdings,
  groupNames: ReadonlyMap<string, string>,
): { text: string; bookable: boolean; payMinor: number | null } {
  const payment = paymentFor(terms, holdings);
  switch (payment.kind) {
    case 'free':
      return { text: bookingTexts.free, bookable: true, payMinor: null };
    case 'subscription':
      return { text: 'Included in your membership', bookable: true, payMinor: null };
    case 'credit': {
      const left = holdings.creditsByGroup.get(payment.groupId) ?? 0;
      const name = groupNames.get(payment.groupId) ?? 'punch card';
      return { text: `Uses 1 credit of ${name} (${left} left)`, bookable: true, payMinor: null };
    }
    case 'pay':
      // Paid by card when booking, online (decision 0070).
      return {
        text: `${formatMoney(payment.priceMinor, terms.currency)}, paid by card when you book`,
        bookable: true,
        payMinor: payment.priceMinor,
      };
    case 'none':
      return {
        text: 'Needs a membership or punch card from the Shop',
        bookable: false,
        payMinor: null,
      };
  }
}

export type BookingState = { label: string; tone: 'pending' | 'ok' | 'wait' | 'refused' | 'done' };

export function bookingState(booking: Pick<BookingDoc, 'status'>, online: boolean): BookingState {
  switch (booking.status) {
    case 'requested':
      return {
        label: online ? bookingTexts.pendingOnline : bookingTexts.pendingOffline,
        tone: 'pending',
      };
    case 'booked':
      return { label: bookingTexts.booked, tone: 'ok' };
    case 'waitlisted':
      return { label: bookingTexts.waitlisted, tone: 'wait' };
    case 'refused':
      return { label: bookingTexts.refused, tone: 'refused' };
    case 'cancelled':
      return { label: bookingTexts.cancelled, tone: 'done' };
    case 'attended':
      return { label: bookingTexts.attended, tone: 'done' };
    case 'no-show':
      return { label: bookingTexts.noShow, tone: 'done' };
  }
}

/** The booking a person holds on a class time, if any (the one still in the running). */
export function activeBookingOf(
  bookings: readonly BookingDoc[],
  occurrenceId: string,
  personId: string,
): BookingDoc | null {
  return (
    bookings.find(
      (b) => b.occurrenceId === occurrenceId && b.customerUserId === personId && isActive(b.status),
    ) ?? null
  );
}

/** Whether the person may cancel now (a request or waitlist spot always; a place until cut-off). */
export const mayCancel = (booking: BookingDoc, occurrence: OccurrenceDoc, now: number): boolean =>
  isActive(booking.status) &&
  booking.status !== 'attended' &&
  booking.status !== 'no-show' &&
  customerMayCancel(booking, occurrence, now);

/** A new booking request as the device writes it. */
export function bookingRequest(input: {
  id: string;
  orgId: string;
  personId: string;
  personName: string;
  occurrenceId: string;
  joinWaitlist: boolean;
  now: Date;
}): BookingDoc {
  const at = input.now.toISOString();
  return {
    id: input.id,
    orgId: input.orgId,
    customerUserId: input.personId,
    customerName: input.personName,
    occurrenceId: input.occurrenceId,
    status: 'requested',
    appointment: null,
    joinWaitlist: input.joinWaitlist,
    paidWith: null,
    refusal: null,
    requestedAt: at,
    decidedAt: null,
    checkedInAt: null,
    updatedAt: at,
  };
}
