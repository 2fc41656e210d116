import {
  allowedChange,
  bookingMessages,
  customerMayCancel,
  isActive,
  pastCutoffMessage,
  paymentFor,
  takesPlace,
  type Payment,
} from '@platform/schema/bookings/booking.rules';
import type { BookingDoc } from '@platform/schema/bookings/booking.zod';
import { appointmentMessages } from '@platform/schema/schedule/appointments.zod';
import { documentIdSchema } from '@platform/schema/sync/ids';
import { dayKeyOf, orgTimeZone } from '@platform/schema/time-tracking/org-calendar';
import type { Db, Tx } from '../db/open-database.ts';
import { sentTogether } from '../db/sent-together.ts';
import { icsUidOf, type IcsEntry } from '@platform/schema/schedule/ics';
import type { JobQueue } from '../jobs/job-queue.ts';
import { bookingPayMessages } from '@platform/schema/bookings/booking-pay.zod';
import {
  holdsPaymentFor,
  owePaymentsBack,
  usePaymentFor,
} from '../payments/booking-payments.service.ts';
import { holdingsOf, refundBookingCredits, useCredits } from '../payments/credits.service.ts';
import {
  checkAskedAppointment,
  lockAppointmentSlots,
  saveAppointment,
} from '../schedule/appointments.service.ts';
import type { Actor } from '../sync/actor.ts';
import { notifyChange } from '../sync/change-feed.ts';
import type { Change, RuleError, WriteContext } from '../sync/collection-definition.ts';
import {
  activeBookingsOn,
  classTermsOf,
  creditGroupsOf,
  feedBookingsOf,
  lockActiveBookingsOf,
  lockBookingWriters,
  lockOccurrences,
  lockWaitlist,
  peopleOf,
  saveOccurrenceCounts,
  storedOf,
  upsertBookings,
  type LockedOccurrence,
  type OccurrenceRow,
  type StoredBooking,
} from './bookings.repository.ts';

// The replication registry (sync/collections) reads stored rows as documents through here.
export { bookingToDoc } from './bookings.repository.ts';
export { bookingMessages };

/**
 * The one write path for bookings (decision 0066). A device pushes a request; here, in the
 * push's transaction and under the class time's row lock, the server decides: a place if one is
 * free and something pays for it (a subscription that includes the class, a punch-card credit,
 * or nothing when the class is free), else the waitlist if the person asked for it, else a
 * refusal with its reason. Cancelling a place gives its credit back (in time) and promotes the
 * first person waiting. Verdicts are stored in the document, so they replicate back to every
 * device of the family — never lost, never a refused push for a full class.
 */

type Who = 'customer' | 'staff';

type OccurrenceState = LockedOccurrence & { changed: boolean };

function whoIs(actor: Actor): Who {
  return actor.view === 'org' ? 'staff' : 'customer';
}

/** Breaks of the document rules, whatever the schedule says. */
function ruleBroken(who: Who, { next, master }: Change<BookingDoc>): string | null {
  if (
    master &&
    (master.customerUserId !== next.customerUserId ||
      master.occurrenceId !== next.occurrenceId ||
      !sameAppointment(master.appointment, next.appointment))
  )
    return bookingMessages.cannotMove;
  // The device names an appointment's class time: a fresh id in the one spelling ids have, so
  // the booking's text reference and the class time's uuid always meet.
  if (!master && next.appointment && !documentIdSchema.safeParse(next.occurrenceId).success)
    return appointmentMessages.newTimeId;
  if (next._deleted || master?._deleted) {
    return next._deleted === (master?._deleted ?? false) ? null : bookingMessages.cannotDelete;
  }
  const from = master?.status ?? null;
  if (allowedChange(who, from, next.status)) return null;
  if (from === 'attended' || from === 'no-show') return bookingMessages.settledByStaff;
  if (from === null) return bookingMessages.newMustRequest;
  return who === 'customer' ? bookingMessages.customerStatus : bookingMessages.staffStatus;
}

/** What was asked for as an appointment is fixed, like the class time (a slot is not moved). */
function sameAppointment(a: BookingDoc['appointment'], b: BookingDoc['appointment']): boolean {
  if (!a || !b) return !a && !b;
  return (
    a.typeId === b.typeId &&
    a.staffUserId === b.staffUserId &&
    Date.parse(a.startsAt) === Date.parse(b.startsAt)
  );
}

/** A new booking, or one asked again after a refusal or cancellation. */
const isRequest = ({ next, master }: Change<BookingDoc>) =>
  next.status === 'requested' && master?.status !== 'requested';

export async function writeBookings(
  tx: Tx,
  actor: Actor,
  changes: Array<Change<BookingDoc>>,
  context: WriteContext,
): Promise<RuleError[]> {
  const who = whoIs(actor);
  const errors: RuleError[] = [];
  for (const change of changes) {
    const broken = ruleBroken(who, change);
    if (broken) errors.push({ id: change.next.id, message: broken });
  }
  const orgId = actor.orgId ?? '';
  const requests = changes.filter(isRequest);
  const occurrenceIds = [...new Set(changes.map((c) => c.next.occurrenceId))];
  // What the check reads, sent together and run in this order (decision 0075) — each statement
  // after the one before has finished, with its own snapshot: who the people are; the
  // appointment slots' locks, then the class times' row locks (the one order every writer
  // takes them in: appointment.repository.ts); then, behind those locks, who holds what on
  // those class times, and which punch-card group each known booking's credit came from.
  const [people, , lockedRows, active, creditGroupOf] = await sentTogether([
    peopleOf(
      tx,
      orgId,
      changes.map((c) => c.next.customerUserId),
    ),
    lockAppointmentSlots(
      tx,
      requests.flatMap((c) => (c.next.appointment ? [c.next.appointment.staffUserId] : [])),
    ),
    lockOccurrences(tx, orgId, occurrenceIds),
    activeBookingsOn(tx, orgId, occurrenceIds),
    creditGroupsOf(
      tx,
      changes.filter((c) => c.master).map((c) => c.next.id),
    ),
  ]);
  for (const { next } of requests)
    if (!people.get(next.customerUserId)?.customer)
      errors.push({ id: next.id, message: bookingMessages.notACustomer });
  if (errors.length) return errors;

  const now = context.now;
  const occurrences = new Map<string, OccurrenceState>();
  for (const [id, row] of lockedRows) occurrences.set(id, { ...row, changed: false });

  // A customer's cancellation of a place after the cut-off is refused (the push says why);
  // judged at the time it was made on the device, never before the booking was decided.
  for (const { next, master } of changes) {
    if (who !== 'customer' || next.status !== 'cancelled' || !master) continue;
    if (master.status === 'cancelled') continue;
    const occurrence = occurrences.get(next.occurrenceId);
    if (!occurrence || occurrence.status === 'cancelled') continue;
    const at = Math.max(
      Date.parse(next.updatedAt),
      master.decidedAt ? Date.parse(master.decidedAt) : 0,
    );
    // Once the class has begun by the server's clock, a held place is the organisation's to
    // settle (attended or no-show): no device's stamp reaches back for a credit.
    const begun = takesPlace(master.status) && now.getTime() >= occurrence.startsAt.getTime();
    if (begun || !customerMayCancel(master, { cancelBy: occurrence.cancelBy.toISOString() }, at)) {
      const hours = Math.round(
        (occurrence.startsAt.getTime() - occurrence.cancelBy.getTime()) / 3_600_000,
      );
      errors.push({ id: next.id, message: pastCutoffMessage(hours) });
    }
  }
  if (errors.length) return errors;

  const holdsOther = (occurrenceId: string, personId: string, bookingId: string) =>
    active.some(
      (b) => b.occurrenceId === occurrenceId && b.customerUserId === personId && b.id !== bookingId,
    );
  const stored: StoredBooking[] = [];
  // Decided now that the class times are ours: the order of the locks is the order of arrival.
  const decidedAt = new Date().toISOString();
  for (const change of changes) {
    const { next, master } = change;
    const occurrence = occurrences.get(next.occurrenceId);
    const doc: StoredBooking = {
      ...next,
      // What only the server sets stays as it was, whatever the device sent.
      paidWith: master?.paidWith ?? null,
      refusal: master?.refusal ?? null,
      decidedAt: master?.decidedAt ?? null,
      checkedInAt: master?.checkedInAt ?? null,
      requestedAt: master && !isRequest(change) ? master.requestedAt : next.requestedAt,
      creditGroupId: creditGroupOf.get(next.id) ?? null,
      customerName: people.get(next.customerUserId)?.name ?? master?.customerName ?? '',
    };
    if (isRequest(change)) {
      const verdict = doc.appointment
        ? await decideAppointment(tx, {
            actorUserId: actor.userId,
            who,
            doc,
            existing: occurrence,
            now,
            made: (made) => occurrences.set(made.id, made),
          })
        : await decideRequest(tx, {
            actorUserId: actor.userId,
            who,
            doc,
            occurrence,
            now,
            alreadyHolds: holdsOther(next.occurrenceId, next.customerUserId, next.id),
          });
      Object.assign(doc, verdict, { decidedAt });
      if (verdict.status !== 'refused')
        active.push({
          id: next.id,
          customerUserId: next.customerUserId,
          occurrenceId: next.occurrenceId,
        });
    } else if (next.status === 'cancelled' && master && master.status !== 'cancelled') {
      await release(tx, {
        orgId,
        actorUserId: actor.userId,
        who,
        occurrence,
        booking: doc,
        from: master.status,
        now,
        jobs: context.jobs ?? null,
      });
      doc.refusal = null;
    } else if (next.status === 'attended' && master?.status !== 'attended') {
      doc.checkedInAt = next.updatedAt;
    } else if (next.status === 'booked' && master && master.status !== 'booked') {
      // Staff undoing a check-in or a no-show.
      doc.checkedInAt = null;
    }
    stored.push(doc);
  }

  // Places a cancellation freed go to the waitlist, in order: read behind the stored verdicts.
  const promoting = [...occurrences.values()].some(mayPromote(now));
  if (promoting) await upsertBookings(tx, stored);
  const promoted: string[] = [];
  for (const occurrence of occurrences.values())
    promoted.push(...(await promoteWaitlist(tx, occurrence, now, actor.userId)));
  // A request paid for by card and refused (full, cancelled, started…): the money goes back.
  const refusedNow = stored
    .filter((doc) => doc.status === 'refused' && doc.decidedAt === decidedAt)
    .map((doc) => doc.id);
  // The writes, sent together (one round trip when no one was promoted).
  await sentTogether([
    promoting ? null : upsertBookings(tx, stored),
    saveChangedCounts(tx, orgId, occurrences),
    announcePromotions(tx, context.jobs, orgId, promoted),
    owePaymentsBack(tx, context.jobs ?? null, orgId, refusedNow, ['paid']),
  ]);
  // A request made offline and refused when it arrived: the person may not have the app open.
  const refusedLate = stored
    .filter(
      (doc) =>
        doc.status === 'refused' &&
        doc.decidedAt === decidedAt &&
        Date.parse(decidedAt) - Date.parse(doc.requestedAt) > OFFLINE_REQUEST_MS,
    )
    .map((doc) => doc.id);
  if (refusedLate.length && context.jobs)
    await context.jobs.enqueue(
      'booking-notice',
      { orgId, kind: 'refused', bookingIds: refusedLate },
      { tx },
    );
  return [];
}

/** A request that reached the server this long after it was made was made offline. */
const OFFLINE_REQUEST_MS = 60_000;

type Verdict = Pick<BookingDoc, 'status' | 'paidWith' | 'refusal'> & {
  creditGroupId: string | null;
};

const refused = (refusal: string): Verdict => ({
  status: 'refused',
  paidWith: null,
  refusal,
  creditGroupId: null,
});

async function decideRequest(
  tx: Tx,
  input: {
    actorUserId: string;
    who: Who;
    doc: StoredBooking;
    occurrence: OccurrenceState | undefined;
    now: Date;
    alreadyHolds: boolean;
  },
): Promise<Verdict> {
  const { doc, occurrence, now } = input;
  // An appointment's place is its booker's: it is asked for as a slot (decideAppointment).
  if (!occurrence || occurrence.kind === 'appointment') return refused(bookingMessages.noSuchClass);
  if (occurrence.status === 'cancelled') return refused(bookingMessages.classCancelled);
  // Staff may still add a walk-in while the class runs; customers book before it starts.
  const closesAt = input.who === 'staff' ? occurrence.endsAt : occurrence.startsAt;
  if (closesAt.getTime() <= now.getTime()) return refused(bookingMessages.classStarted);
  if (input.alreadyHolds) return refused(bookingMessages.alreadyBooked);
  if (occurrence.bookedCount >= occurrence.capacity) {
    // A place paid for by card does not wait holding the money: refused, and paid back.
    if (!doc.joinWaitlist || (await holdsPaymentFor(tx, doc.orgId, doc.id)))
      return refused(bookingMessages.full);
    occurrence.waitlistCount += 1;
    occurrence.changed = true;
    return { status: 'waitlisted', paidWith: null, refusal: null, creditGroupId: null };
  }
  const paid = await payForPlace(tx, occurrence, doc, now, input.actorUserId);
  // Staff adding someone at the desk take payment there (the point of sale) when nothing the
  // person holds pays; a customer's own request is held to the rule.
  if (!paid.ok && input.who === 'staff') {
    occurrence.bookedCount += 1;
    occurrence.changed = true;
    return { status: 'booked', paidWith: 'desk', refusal: null, creditGroupId: null };
  }
  if (!paid.ok) return refused(paid.refusal);
  occurrence.bookedCount += 1;
  occurrence.changed = true;
  return { status: 'booked', paidWith: paid.paidWith, refusal: null, creditGroupId: paid.groupId };
}

/**
 * An appointment asked for (a type, a staff member, a start): under that staff member's slot
 * lock (taken at the start of the push), the start must still be a free slot of their hours —
 * the same function the device offered it with (appointments.zod.ts) — and something must pay
 * for it. Then it becomes a class time of its own, with the device's id and one place, taken.
 */
async function decideAppointment(
  tx: Tx,
  input: {
    actorUserId: string;
    who: Who;
    doc: StoredBooking;
    /** A class time of the organisation already under this id (a request made twice). */
    existing: OccurrenceState | undefined;
    now: Date;
    made: (occurrence: OccurrenceState) => void;
  },
): Promise<Verdict> {
  const { doc, now } = input;
  if (!doc.appointment) return refused(bookingMessages.noSuchClass);
  if (input.existing) return refused(appointmentMessages.slotTaken);
  const checked = await checkAskedAppointment(tx, {
    orgId: doc.orgId,
    occurrenceId: doc.occurrenceId,
    asked: doc.appointment,
    now,
    startedMessage: bookingMessages.classStarted,
  });
  if ('refusal' in checked) return refused(checked.refusal);
  const occurrence: OccurrenceState = {
    ...checked.row,
    location: checked.row.location ?? '',
    coachUserId: checked.row.coachUserId ?? null,
    coachName: checked.row.coachName ?? '',
    classId: null,
    appointmentTypeId: checked.row.appointmentTypeId ?? null,
    kind: 'appointment',
    capacity: 1,
    bookedCount: 0,
    waitlistCount: 0,
    status: 'scheduled',
    detached: true,
    updatedAt: now,
    deleted: false,
    txid: '0',
    terms: checked.terms,
    changed: false,
  };
  const paid = await payForPlace(tx, occurrence, doc, now, input.actorUserId);
  if (!paid.ok && input.who === 'customer') return refused(paid.refusal);
  await saveAppointment(tx, checked);
  input.made({ ...occurrence, bookedCount: 1, changed: true });
  return paid.ok
    ? { status: 'booked', paidWith: paid.paidWith, refusal: null, creditGroupId: paid.groupId }
    : { status: 'booked', paidWith: 'desk', refusal: null, creditGroupId: null };
}

const nothingHeld = {
  activeProductIds: new Set<string>(),
  creditsByGroup: new Map<string, number>(),
};

type Paid =
  | { ok: true; paidWith: 'free' | 'subscription' | 'credit' | 'card'; groupId: string | null }
  | { ok: false; refusal: string };

/** Pays for a place as booking.rules.ts `paymentFor` says; a credit is taken here. */
async function payForPlace(
  tx: Tx,
  occurrence: LockedOccurrence,
  booking: Pick<BookingDoc, 'id' | 'customerUserId'>,
  now: Date,
  actorUserId: string,
): Promise<Paid> {
  const { terms } = occurrence;
  // A free class needs nothing read about the person.
  if (paymentFor(terms, nothingHeld).kind === 'free')
    return { ok: true, paidWith: 'free', groupId: null };
  const holdings = await holdingsOf(tx, {
    orgId: occurrence.orgId,
    customerUserId: booking.customerUserId,
    groupIds: terms.punchCardGroupIds,
    today: dayKeyOf(now.getTime(), orgTimeZone(terms.timeZone)),
  });
  // A credit can be gone by the time it is taken (another booking of the same person, in
  // another push): the next group is tried, then the refusal.
  for (;;) {
    const payment: Payment = paymentFor(terms, holdings);
    if (payment.kind === 'free') return { ok: true, paidWith: 'free', groupId: null };
    if (payment.kind === 'subscription')
      return { ok: true, paidWith: 'subscription', groupId: null };
    if (payment.kind === 'pay') {
      // Paid by card before the request was sent (decision 0070): that payment, once.
      const card = await usePaymentFor(
        tx,
        {
          id: booking.id,
          orgId: occurrence.orgId,
          customerUserId: booking.customerUserId,
          occurrenceId: occurrence.id,
        },
        { priceMinor: payment.priceMinor, appointmentTypeId: occurrence.appointmentTypeId },
        now,
      );
      if (card.ok) return { ok: true, paidWith: 'card', groupId: null };
      return {
        ok: false,
        refusal: card.returned ? bookingPayMessages.paymentReturned : bookingMessages.payAtBooking,
      };
    }
    if (payment.kind === 'none') return { ok: false, refusal: bookingMessages.notEntitled };
    const used = await useCredits(tx, {
      orgId: occurrence.orgId,
      customerUserId: booking.customerUserId,
      groupId: payment.groupId,
      count: 1,
      reference: booking.id,
      actorUserId,
    });
    if (used.ok) return { ok: true, paidWith: 'credit', groupId: payment.groupId };
    holdings.creditsByGroup.set(payment.groupId, 0);
  }
}

/** A booking leaves its place or spot: counts, and its credit back when it is owed. */
async function release(
  tx: Tx,
  input: {
    orgId: string;
    actorUserId: string;
    who: Who;
    occurrence: OccurrenceState | undefined;
    booking: StoredBooking;
    from: BookingDoc['status'];
    now: Date;
    jobs: Pick<JobQueue, 'enqueue'> | null;
  },
) {
  const { occurrence, booking, from } = input;
  if (occurrence) {
    if (takesPlace(from)) occurrence.bookedCount = Math.max(0, occurrence.bookedCount - 1);
    if (from === 'waitlisted') occurrence.waitlistCount = Math.max(0, occurrence.waitlistCount - 1);
    // An appointment is its booker's alone: cancelled with them, its slot free again.
    if (occurrence.kind === 'appointment' && takesPlace(from)) occurrence.status = 'cancelled';
    occurrence.changed = true;
  }
  // A customer's cancellation reached here only in time (checked above); staff always refund.
  if (takesPlace(from) && booking.paidWith === 'card')
    await owePaymentsBack(tx, input.jobs, input.orgId, [booking.id], ['used']);
  if (takesPlace(from) && booking.paidWith === 'credit' && booking.creditGroupId) {
    await refundBookingCredits(tx, {
      orgId: input.orgId,
      customerUserId: booking.customerUserId,
      groupId: booking.creditGroupId,
      count: 1,
      reference: booking.id,
      actorUserId: input.actorUserId,
    });
  }
}

/**
 * Fills free places from the waitlist, first come first served. A person waiting whom nothing
 * pays for any more (their last credit went elsewhere) is refused and the next one is tried.
 * Answers the ids given a place.
 */
export async function promoteWaitlist(
  tx: Tx,
  occurrence: OccurrenceState,
  now: Date,
  actorUserId: string,
): Promise<string[]> {
  const promoted: string[] = [];
  while (mayPromote(now)(occurrence)) {
    const [next] = await lockWaitlist(tx, occurrence.orgId, occurrence.id, 1);
    if (!next) break;
    const booking = storedOf(next);
    const paid = await payForPlace(tx, occurrence, booking, now, actorUserId);
    occurrence.waitlistCount -= 1;
    occurrence.changed = true;
    const decided: StoredBooking = paid.ok
      ? {
          ...booking,
          status: 'booked',
          paidWith: paid.paidWith,
          creditGroupId: paid.groupId,
          refusal: null,
        }
      : { ...booking, status: 'refused', refusal: paid.refusal };
    if (paid.ok) occurrence.bookedCount += 1;
    await upsertBookings(tx, [
      { ...decided, decidedAt: now.toISOString(), updatedAt: now.toISOString() },
    ]);
    await notifyChange(tx, {
      collection: 'bookings',
      orgId: occurrence.orgId,
      ownerIds: [booking.customerUserId],
    });
    if (paid.ok) promoted.push(booking.id);
  }
  return promoted;
}

/** Whether a class time has a free place and someone waiting for it, and may still fill it. */
const mayPromote = (now: Date) => (occurrence: OccurrenceState) =>
  occurrence.status !== 'cancelled' &&
  occurrence.startsAt.getTime() > now.getTime() &&
  occurrence.bookedCount < occurrence.capacity &&
  occurrence.waitlistCount > 0;

async function saveChangedCounts(tx: Tx, orgId: string, occurrences: Map<string, OccurrenceState>) {
  const changed = [...occurrences.values()].filter((o) => o.changed);
  if (changed.length === 0) return;
  await sentTogether([
    saveOccurrenceCounts(tx, changed),
    // Every member's device shows places left.
    notifyChange(tx, { collection: 'occurrences', orgId, ownerIds: [] }),
  ]);
}

async function announcePromotions(
  tx: Tx,
  jobs: JobQueue | null,
  orgId: string,
  bookingIds: string[],
) {
  if (bookingIds.length === 0 || !jobs) return;
  await jobs.enqueue('booking-notice', { orgId, kind: 'promoted', bookingIds }, { tx });
}

/**
 * A class time was cancelled (staff): everyone on it is cancelled, credits given back, and told.
 * Runs under the class time's lock (the caller holds it).
 */
export async function cancelBookingsOf(
  tx: Tx,
  occurrence: OccurrenceRow,
  context: WriteContext & { actorUserId: string },
): Promise<number> {
  const held = await lockActiveBookingsOf(tx, occurrence.orgId, occurrence.id);
  const state: OccurrenceState = {
    ...occurrence,
    terms: await classTermsOf(tx, occurrence),
    changed: false,
  };
  const stamp = context.now.toISOString();
  const cancelled: StoredBooking[] = [];
  for (const row of held) {
    const booking = storedOf(row);
    await release(tx, {
      orgId: occurrence.orgId,
      actorUserId: context.actorUserId,
      who: 'staff',
      occurrence: state,
      booking,
      from: booking.status,
      now: context.now,
      jobs: context.jobs,
    });
    cancelled.push({
      ...booking,
      status: 'cancelled',
      refusal: bookingMessages.classCancelled,
      updatedAt: stamp,
    });
  }
  await upsertBookings(tx, cancelled);
  await saveChangedCounts(tx, occurrence.orgId, new Map([[state.id, state]]));
  if (cancelled.length) {
    await notifyChange(tx, {
      collection: 'bookings',
      orgId: occurrence.orgId,
      ownerIds: [...new Set(cancelled.map((b) => b.customerUserId))],
    });
    if (context.jobs)
      await context.jobs.enqueue(
        'booking-notice',
        {
          orgId: occurrence.orgId,
          kind: 'class-cancelled',
          bookingIds: cancelled.map((b) => b.id),
        },
        { tx },
      );
  }
  return cancelled.length;
}

/** A class time got more places (staff): the waitlist moves up. */
export async function fillFreedPlaces(
  tx: Tx,
  occurrence: OccurrenceRow,
  context: WriteContext & { actorUserId: string },
): Promise<void> {
  const state: OccurrenceState = {
    ...occurrence,
    terms: await classTermsOf(tx, occurrence),
    changed: false,
  };
  const promoted = await promoteWaitlist(tx, state, context.now, context.actorUserId);
  await saveChangedCounts(tx, occurrence.orgId, new Map([[state.id, state]]));
  await announcePromotions(tx, context.jobs, occurrence.orgId, promoted);
}

/** Everyone holding a place on a class time (to tell them it moved). */
export async function placesOn(tx: Tx, occurrence: OccurrenceRow): Promise<string[]> {
  const held = await lockActiveBookingsOf(tx, occurrence.orgId, occurrence.id);
  return held
    .filter((row) => isActive(row.status) && row.status !== 'requested')
    .map((row) => row.id);
}

/**
 * Before a staff change to class times: waits for pushes in flight on their bookings (the
 * push's own locks, in its order), so the class time's lock taken next never deadlocks.
 */
export async function holdBookingWriters(
  tx: Tx,
  orgId: string,
  of: { classId: string } | { occurrenceId: string },
): Promise<void> {
  await lockBookingWriters(tx, orgId, of);
}

/**
 * The family's calendar (the private feed): places held and waited for, and those whose class
 * was cancelled (so a calendar app removes them) — not the person's own cancellations.
 */
export async function familyCalendarEntries(
  db: Db,
  orgId: string,
  personIds: readonly string[],
  since: Date,
): Promise<IcsEntry[]> {
  const rows = await feedBookingsOf(db, orgId, personIds, since);
  return rows
    .filter(
      ({ booking, occurrence }) =>
        booking.status !== 'cancelled' || occurrence.status === 'cancelled',
    )
    .map(({ booking, occurrence }) => ({
      uid: icsUidOf(occurrence.id, booking.customerUserId),
      title: booking.status === 'waitlisted' ? `${occurrence.title} (waitlist)` : occurrence.title,
      location: occurrence.location,
      description: [
        booking.customerName && `For ${booking.customerName}`,
        occurrence.coachName && `With ${occurrence.coachName}`,
      ]
        .filter(Boolean)
        .join('\n'),
      startsAt: occurrence.startsAt.toISOString(),
      endsAt: occurrence.endsAt.toISOString(),
      cancelled: occurrence.status === 'cancelled',
    }));
}
