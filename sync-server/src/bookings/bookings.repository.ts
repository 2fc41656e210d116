import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import {
  appointmentTypes,
  bookings,
  classOccurrences,
  guardianLinks,
  memberships,
  scheduleClasses,
  users,
} from '@platform/schema/db';
import { fullName } from '@platform/schema/app/full-name.rules';
import type { BookingDoc } from '@platform/schema/bookings/booking.zod';
import type { Db, Tx } from '../db/open-database.ts';
import { sentTogether } from '../db/sent-together.ts';
import { excludedSet } from '../db/upsert.ts';
import type { WireDoc } from '../sync/collection-definition.ts';

export type BookingRow = typeof bookings.$inferSelect;
export type OccurrenceRow = typeof classOccurrences.$inferSelect;

/** What the server keeps beside the document: the punch-card group a credit came from. */
export type StoredBooking = WireDoc<BookingDoc> & { creditGroupId: string | null };

export function bookingToDoc(row: BookingRow): WireDoc<BookingDoc> {
  return {
    id: row.id,
    orgId: row.orgId,
    customerUserId: row.customerUserId,
    customerName: row.customerName,
    occurrenceId: row.occurrenceId,
    status: row.status,
    appointment: row.appointment ?? null,
    joinWaitlist: row.joinWaitlist,
    paidWith: row.paidWith,
    refusal: row.refusal,
    // Bookings from before the schedule (issue 4) have no request time: their last change.
    requestedAt: (row.requestedAt ?? row.updatedAt).toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    checkedInAt: row.checkedInAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
    _deleted: row.deleted,
  };
}

export const storedOf = (row: BookingRow): StoredBooking => ({
  ...bookingToDoc(row),
  creditGroupId: row.creditGroupId,
});

const rowOf = (doc: StoredBooking) => ({
  id: doc.id,
  orgId: doc.orgId,
  customerUserId: doc.customerUserId,
  customerName: doc.customerName,
  occurrenceId: doc.occurrenceId,
  status: doc.status,
  appointment: doc.appointment,
  joinWaitlist: doc.joinWaitlist,
  paidWith: doc.paidWith,
  creditGroupId: doc.creditGroupId,
  refusal: doc.refusal,
  requestedAt: new Date(doc.requestedAt),
  decidedAt: doc.decidedAt ? new Date(doc.decidedAt) : null,
  checkedInAt: doc.checkedInAt ? new Date(doc.checkedInAt) : null,
  updatedAt: new Date(doc.updatedAt),
  deleted: doc._deleted,
});

/** Stores every document in one statement (inserting new ones, replacing known ones). */
export async function upsertBookings(tx: Tx, docs: StoredBooking[]): Promise<void> {
  if (docs.length === 0) return;
  await tx
    .insert(bookings)
    .values(docs.map(rowOf))
    // A document never changes organisation: org_id is not among the columns an update sets.
    .onConflictDoUpdate({
      target: bookings.id,
      set: excludedSet(bookings, [
        'customerUserId',
        'customerName',
        'occurrenceId',
        'status',
        'appointment',
        'joinWaitlist',
        'paidWith',
        'creditGroupId',
        'refusal',
        'requestedAt',
        'decidedAt',
        'checkedInAt',
        'updatedAt',
        'deleted',
      ]),
    });
}

const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The organisation's occurrences among `ids`, locked in id order: every writer of a class
 * time's places (a push of bookings, a staff change) takes this lock first, so the counts read
 * are the counts written. Ids that are not occurrence ids are simply not found.
 */
export type ClassTerms = {
  priceMinor: number | null;
  entitlingProductIds: string[];
  punchCardGroupIds: string[];
  timeZone: string;
};
export type LockedOccurrence = OccurrenceRow & { terms: ClassTerms };

const noTerms: ClassTerms = {
  priceMinor: null,
  entitlingProductIds: [],
  punchCardGroupIds: [],
  timeZone: 'UTC',
};

/** What pays for a class time: its series', or its appointment type's. */
const termsColumns = {
  priceMinor: sql<
    number | null
  >`coalesce(${scheduleClasses.priceMinor}, ${appointmentTypes.priceMinor})`,
  entitlingProductIds: sql<
    string[] | null
  >`coalesce(${scheduleClasses.entitlingProductIds}, ${appointmentTypes.entitlingProductIds})::text[]`,
  punchCardGroupIds: sql<
    string[] | null
  >`coalesce(${scheduleClasses.punchCardGroupIds}, ${appointmentTypes.punchCardGroupIds})::text[]`,
  timeZone: sql<string | null>`coalesce(${scheduleClasses.timeZone}, ${appointmentTypes.timeZone})`,
};

const termsOf = (row: {
  priceMinor: number | null;
  entitlingProductIds: string[] | null;
  punchCardGroupIds: string[] | null;
  timeZone: string | null;
}): ClassTerms =>
  row.timeZone === null
    ? noTerms
    : {
        priceMinor: row.priceMinor,
        entitlingProductIds: row.entitlingProductIds ?? [],
        punchCardGroupIds: row.punchCardGroupIds ?? [],
        timeZone: row.timeZone,
      };

export async function lockOccurrences(tx: Tx, orgId: string, ids: readonly string[]) {
  const wanted = [...new Set(ids)].filter((id) => uuidShape.test(id));
  if (wanted.length === 0) return new Map<string, LockedOccurrence>();
  // With the terms of each series or type (what pays for a place): one read for the check.
  const rows = await tx
    .select({ occurrence: classOccurrences, ...termsColumns })
    .from(classOccurrences)
    .leftJoin(scheduleClasses, eq(scheduleClasses.id, classOccurrences.classId))
    .leftJoin(appointmentTypes, eq(appointmentTypes.id, classOccurrences.appointmentTypeId))
    .where(
      and(
        eq(classOccurrences.orgId, orgId),
        inArray(classOccurrences.id, wanted),
        eq(classOccurrences.deleted, false),
      ),
    )
    .orderBy(asc(classOccurrences.id))
    .for('update', { of: classOccurrences });
  return new Map(
    rows.map((row): [string, LockedOccurrence] => [
      row.occurrence.id,
      { ...row.occurrence, terms: termsOf(row) },
    ]),
  );
}

/**
 * The people a push names, in one read: their names as rosters show them, and whether each is
 * a customer of the organisation.
 */
export async function peopleOf(tx: Tx, orgId: string, ids: readonly string[]) {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map<string, { name: string; customer: boolean }>();
  const rows = await tx
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      membership: memberships.userId,
    })
    .from(users)
    .leftJoin(
      memberships,
      and(
        eq(memberships.userId, users.id),
        eq(memberships.orgId, orgId),
        eq(memberships.kind, 'customer'),
      ),
    )
    .where(inArray(users.id, unique));
  return new Map(
    rows.map((row) => [row.id, { name: fullName(row), customer: row.membership !== null }]),
  );
}

/** The people holding a request, a place or a waitlist spot on these occurrences. */
export async function activeBookingsOn(tx: Tx, orgId: string, occurrenceIds: readonly string[]) {
  if (occurrenceIds.length === 0) return [];
  return tx
    .select({
      id: bookings.id,
      customerUserId: bookings.customerUserId,
      occurrenceId: bookings.occurrenceId,
    })
    .from(bookings)
    .where(
      and(
        eq(bookings.orgId, orgId),
        inArray(bookings.occurrenceId, [...occurrenceIds]),
        inArray(bookings.status, ['requested', 'booked', 'waitlisted', 'attended', 'no-show']),
        eq(bookings.deleted, false),
      ),
    );
}

/**
 * The waitlist of an occurrence in order, locked — skipping any booking another transaction
 * holds (a push changing it right now: it is not promoted under that writer's feet, and the
 * two never wait on each other's locks).
 */
export async function lockWaitlist(tx: Tx, orgId: string, occurrenceId: string, limit: number) {
  if (limit <= 0) return [];
  return tx
    .select()
    .from(bookings)
    .where(
      and(
        eq(bookings.orgId, orgId),
        eq(bookings.occurrenceId, occurrenceId),
        eq(bookings.status, 'waitlisted'),
        eq(bookings.deleted, false),
      ),
    )
    .orderBy(asc(bookings.decidedAt), asc(bookings.id))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/** Every booking still holding a request, place or spot on an occurrence, locked. */
export async function lockActiveBookingsOf(tx: Tx, orgId: string, occurrenceId: string) {
  return tx
    .select()
    .from(bookings)
    .where(
      and(
        eq(bookings.orgId, orgId),
        eq(bookings.occurrenceId, occurrenceId),
        inArray(bookings.status, ['requested', 'booked', 'waitlisted']),
        eq(bookings.deleted, false),
      ),
    )
    .orderBy(asc(bookings.id))
    .for('update');
}

export async function saveOccurrenceCounts(
  tx: Tx,
  counts: ReadonlyArray<Pick<OccurrenceRow, 'id' | 'bookedCount' | 'waitlistCount' | 'status'>>,
) {
  // Sent together: rows the caller has locked already, so their order is not a lock order.
  await sentTogether(
    counts.map((count) =>
      tx
        .update(classOccurrences)
        .set({
          bookedCount: count.bookedCount,
          waitlistCount: count.waitlistCount,
          // An appointment cancelled by its booker is cancelled with them (bookings.service.ts).
          status: count.status,
          updatedAt: new Date(),
        })
        .where(eq(classOccurrences.id, count.id)),
    ),
  );
}

/** The punch-card group each of these bookings took its credit from. */
export async function creditGroupsOf(tx: Tx, ids: readonly string[]) {
  if (ids.length === 0) return new Map<string, string | null>();
  const rows = await tx
    .select({ id: bookings.id, creditGroupId: bookings.creditGroupId })
    .from(bookings)
    .where(inArray(bookings.id, [...ids]));
  return new Map(rows.map((row) => [row.id, row.creditGroupId]));
}

/** What pays for a class time's places: its series' or appointment type's terms. */
export async function classTermsOf(
  tx: Tx | Db,
  occurrence: Pick<OccurrenceRow, 'id'>,
): Promise<ClassTerms> {
  const [row] = await tx
    .select(termsColumns)
    .from(classOccurrences)
    .leftJoin(scheduleClasses, eq(scheduleClasses.id, classOccurrences.classId))
    .leftJoin(appointmentTypes, eq(appointmentTypes.id, classOccurrences.appointmentTypeId))
    .where(eq(classOccurrences.id, occurrence.id));
  return row ? termsOf(row) : noTerms;
}

/**
 * Takes the push's lock (push.ts: an advisory lock per document id) on every booking still
 * holding something on these class times, in the push's order. A staff change to a class time
 * takes these before the class time's row: a push holds a booking's lock while it waits for
 * that row, so taking them the other way round could deadlock with it.
 */
export async function lockBookingWriters(
  tx: Tx,
  orgId: string,
  of: { classId: string } | { occurrenceId: string },
): Promise<void> {
  const on =
    'classId' in of
      ? inArray(
          bookings.occurrenceId,
          tx
            .select({ id: sql<string>`${classOccurrences.id}::text` })
            .from(classOccurrences)
            .where(eq(classOccurrences.classId, of.classId)),
        )
      : eq(bookings.occurrenceId, of.occurrenceId);
  const rows = await tx
    .select({ id: bookings.id })
    .from(bookings)
    .where(
      and(
        eq(bookings.orgId, orgId),
        on,
        inArray(bookings.status, ['requested', 'booked', 'waitlisted']),
      ),
    );
  const ids = rows.map((row) => row.id.toLowerCase()).sort();
  if (ids.length === 0) return;
  await tx.execute(
    sql`select count(pg_advisory_xact_lock(hashtextextended(id, 0))) from unnest(array[${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )}]::text[]) as id`,
  );
}

/**
 * A booking's class time: named by the booking, and of the booking's organisation — a booking
 * may name another organisation's id (it is refused), and must never be joined to it.
 */
const bookingsClassTime = sql`${classOccurrences.id}::text = ${bookings.occurrenceId} and ${classOccurrences.orgId} = ${bookings.orgId}`;

/** What a notice about bookings needs: each booking with its class time, in one read. */
export async function bookingsWithTimes(tx: Tx | Db, orgId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return tx
    .select({ booking: bookings, occurrence: classOccurrences })
    .from(bookings)
    .innerJoin(classOccurrences, bookingsClassTime)
    .where(and(eq(bookings.orgId, orgId), inArray(bookings.id, [...ids])));
}

/**
 * Who hears about a person's bookings: the person, and the guardians whose link gives power
 * (confirmed, decision 0035) — a child without an email is told through them. Each with their
 * address and whether they want booking notices (users.attributes.notificationPreferences).
 */
export async function bookingAudienceOf(tx: Tx | Db, personId: string) {
  const rows = await tx
    .select({ id: users.id, email: users.email, attributes: users.attributes })
    .from(users)
    .where(
      sql`${users.id} = ${personId} or ${users.id} in (select ${guardianLinks.guardianUserId} from ${guardianLinks}
        where ${guardianLinks.childUserId} = ${personId} and ${guardianLinks.confirmedAt} is not null)`,
    );
  return rows.map((row) => ({
    userId: row.id,
    email: row.email,
    wantsBookingNotices: row.attributes.notificationPreferences?.bookings ?? true,
    isPerson: row.id === personId,
  }));
}

/**
 * Bookings holding a place on class times starting between `from` and `to` that were not
 * reminded yet: claimed (marked) here, so two runs — two servers — remind each once.
 */
export async function claimReminders(tx: Tx | Db, from: Date, to: Date, limit: number) {
  return tx
    .update(bookings)
    .set({ remindedAt: new Date() })
    .where(
      sql`${bookings.id} in (select ${bookings.id} from ${bookings}
        join ${classOccurrences} on ${bookingsClassTime}
        where ${bookings.status} = 'booked' and ${bookings.remindedAt} is null
          and ${bookings.deleted} = false and ${classOccurrences.status} = 'scheduled'
          and ${classOccurrences.startsAt} >= ${from.toISOString()}::timestamptz
          and ${classOccurrences.startsAt} < ${to.toISOString()}::timestamptz
        order by ${bookings.id} limit ${limit}
        for update of ${bookings} skip locked)`,
    )
    .returning({ id: bookings.id, orgId: bookings.orgId });
}

/** The family's bookings that belong in their calendar: held, waiting, or their class cancelled. */
export async function feedBookingsOf(
  db: Tx | Db,
  orgId: string,
  personIds: readonly string[],
  since: Date,
) {
  if (personIds.length === 0) return [];
  return db
    .select({ booking: bookings, occurrence: classOccurrences })
    .from(bookings)
    .innerJoin(classOccurrences, bookingsClassTime)
    .where(
      and(
        eq(bookings.orgId, orgId),
        inArray(bookings.customerUserId, [...personIds]),
        inArray(bookings.status, ['booked', 'waitlisted', 'attended', 'cancelled']),
        eq(bookings.deleted, false),
        sql`${classOccurrences.endsAt} >= ${since.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(asc(classOccurrences.startsAt))
    .limit(2000);
}

/**
 * What paying for a place would pay for (decision 0070), read without locks — the decision
 * itself reads again under them: a class time of the organisation with its series' terms and
 * counts, or an appointment type (its class time does not exist before it is booked).
 */
export async function placeToPayFor(
  db: Db | Tx,
  orgId: string,
  target: { occurrenceId: string; appointmentTypeId: string | null },
) {
  if (target.appointmentTypeId) {
    // An appointment names a new class time: an id already taken (a class, anyone's) is not
    // one, and paying for it would pay for something else.
    if (!uuidShape.test(target.occurrenceId)) return null;
    const [taken] = await db
      .select({ id: classOccurrences.id })
      .from(classOccurrences)
      .where(eq(classOccurrences.id, target.occurrenceId));
    if (taken) return null;
    const [type] = await db
      .select()
      .from(appointmentTypes)
      .where(
        and(
          eq(appointmentTypes.orgId, orgId),
          eq(appointmentTypes.id, target.appointmentTypeId),
          eq(appointmentTypes.deleted, false),
        ),
      );
    if (!type) return null;
    return {
      kind: 'appointment' as const,
      title: type.title,
      startsAt: null,
      full: false,
      status: 'scheduled' as const,
      terms: termsOf(type),
    };
  }
  if (!uuidShape.test(target.occurrenceId)) return null;
  const [row] = await db
    .select({ occurrence: classOccurrences, ...termsColumns })
    .from(classOccurrences)
    .leftJoin(scheduleClasses, eq(scheduleClasses.id, classOccurrences.classId))
    .leftJoin(appointmentTypes, eq(appointmentTypes.id, classOccurrences.appointmentTypeId))
    .where(
      and(
        eq(classOccurrences.orgId, orgId),
        eq(classOccurrences.id, target.occurrenceId),
        eq(classOccurrences.deleted, false),
      ),
    );
  if (!row || row.occurrence.kind === 'appointment') return null;
  return {
    kind: row.occurrence.kind,
    title: row.occurrence.title,
    startsAt: row.occurrence.startsAt,
    full: row.occurrence.bookedCount >= row.occurrence.capacity,
    status: row.occurrence.status,
    terms: termsOf(row),
  };
}
