import {
  DEFAULT_CANCEL_CUTOFF_HOURS,
  scheduleMessages,
  type BookingSettings,
  type ClassInput,
  type ClassSavedResponse,
  type OccurrenceEdit,
} from '@platform/schema/schedule/schedule.zod';
import { cancelByOf } from '@platform/schema/bookings/booking.rules';
import { DEFAULT_CURRENCY } from '@platform/schema/payments/money';
import { expandOccurrences, toRRule, type Series } from '@platform/schema/schedule/recurrence';
import { instantOfWallInput, orgTimeZone } from '@platform/schema/time-tracking/org-calendar';
import {
  cancelBookingsOf,
  fillFreedPlaces,
  holdBookingWriters,
  placesOn,
} from '../bookings/bookings.service.ts';
import type { Db, Tx } from '../db/open-database.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { NotFound, RuleBroken } from '../plugins/domain-errors.ts';
import { notifyChange } from '../sync/change-feed.ts';
import * as repo from './schedule.repository.ts';
import { classToDoc } from './schedule.sync.ts';

export { classToDoc, occurrenceToDoc } from './schedule.sync.ts';

/**
 * The schedule (issue 16, decision 0066): staff with manage-schedule create a class or event
 * once and every occurrence becomes a row; editing the series moves every occurrence that has
 * not ended and was not changed on its own; an occurrence may be changed or cancelled alone.
 * Everything is filtered by the staff member's organisation: another's ids answer 404.
 */
export type ScheduleActor = { orgId: string; userId: string };
export type ScheduleContext = { jobs: JobQueue | null; now?: Date };

const announce = async (tx: Tx, orgId: string) => {
  await notifyChange(tx, { collection: 'classes', orgId, ownerIds: [] });
  await notifyChange(tx, { collection: 'occurrences', orgId, ownerIds: [] });
};

async function settingsOf(db: Db | Tx, orgId: string) {
  const settings = await repo.orgScheduleSettings(db, orgId);
  if (!settings) throw new NotFound(scheduleMessages.classNotFound);
  return {
    timeZone: orgTimeZone(settings.timezone),
    cancelCutoffHours: settings.cancelCutoffHours ?? DEFAULT_CANCEL_CUTOFF_HOURS,
  };
}

/** Checks what the input names belongs to the organisation; answers the coach's name. */
async function checkReferences(tx: Tx, orgId: string, input: ClassInput) {
  let coachName: string | null = null;
  if (input.coachUserId) {
    coachName = await repo.staffNameOf(tx, orgId, input.coachUserId);
    if (!coachName) throw new RuleBroken(scheduleMessages.coachUnknown);
  }
  const products = await repo.productsAmong(tx, orgId, input.entitlingProductIds);
  if (products.length !== new Set(input.entitlingProductIds).size)
    throw new RuleBroken(scheduleMessages.productsUnknown);
  if (input.punchCardGroupIds.length) {
    const groups = await repo.punchCardGroupIdsOf(tx, orgId);
    if (!input.punchCardGroupIds.every((id) => groups.has(id)))
      throw new RuleBroken(scheduleMessages.groupsUnknown);
  }
  return coachName;
}

function seriesOf(
  input: Pick<ClassInput, 'firstStart' | 'durationMinutes'>,
  rrule: string | null,
  timeZone: string,
): Series {
  return { firstStart: input.firstStart, durationMinutes: input.durationMinutes, rrule, timeZone };
}

/** Every occurrence of a series (bounded: until a day, or at most MAX_OCCURRENCES). */
function occurrencesOf(series: Series) {
  const first = instantOfWallInput(series.firstStart, series.timeZone);
  if (!first) throw new RuleBroken(scheduleMessages.start);
  const from = Date.parse(first) - 86_400_000;
  // Ten years and a day: far past any rule staff can make (500 times, weekly at most).
  return expandOccurrences(series, { from, to: from + 3_660 * 86_400_000 });
}

function classColumns(input: ClassInput, coachName: string | null) {
  return {
    kind: input.kind,
    title: input.title,
    description: input.description,
    location: input.location,
    coachUserId: input.coachUserId,
    coachName,
    capacity: input.capacity,
    priceMinor: input.priceMinor,
    entitlingProductIds: input.entitlingProductIds,
    punchCardGroupIds: input.punchCardGroupIds,
    firstStart: input.firstStart,
    durationMinutes: input.durationMinutes,
    rrule: input.recurrence ? toRRule(input.recurrence) : null,
  };
}

export async function createClass(
  db: Db,
  actor: ScheduleActor,
  input: ClassInput,
): Promise<ClassSavedResponse> {
  return db.transaction(async (tx) => {
    const { timeZone, cancelCutoffHours } = await settingsOf(tx, actor.orgId);
    const coachName = await checkReferences(tx, actor.orgId, input);
    const columns = classColumns(input, coachName);
    const occurrences = occurrencesOf(seriesOf(input, columns.rrule, timeZone));
    if (occurrences.length === 0) throw new RuleBroken(scheduleMessages.start);
    const saved = await repo.insertClass(tx, {
      ...columns,
      orgId: actor.orgId,
      currency: DEFAULT_CURRENCY,
      timeZone,
      createdByUserId: actor.userId,
    });
    const written = await repo.insertOccurrences(
      tx,
      occurrences.map((o) => ({
        orgId: actor.orgId,
        classId: saved.id,
        ruleDay: o.day,
        kind: saved.kind,
        title: saved.title,
        location: saved.location,
        coachUserId: saved.coachUserId,
        coachName: saved.coachName,
        startsAt: new Date(o.start),
        endsAt: new Date(o.end),
        capacity: saved.capacity,
        cancelBy: new Date(cancelByOf(o.start, cancelCutoffHours)),
      })),
    );
    await announce(tx, actor.orgId);
    return { class: classToDoc(saved), occurrences: written, kept: 0, message: null };
  });
}

/**
 * Saves the whole series: every occurrence that has not ended and was not changed on its own
 * takes the new details and time; days the new rule no longer has are cancelled (their people
 * told, credits given back); new days are added. Occurrences that ended are history.
 */
export async function updateSeries(
  db: Db,
  actor: ScheduleActor,
  classId: string,
  input: ClassInput,
  context: ScheduleContext,
): Promise<ClassSavedResponse> {
  return db.transaction(async (tx) => {
    const now = context.now ?? new Date();
    await holdBookingWriters(tx, actor.orgId, { classId });
    const existing = await repo.findClass(tx, actor.orgId, classId, true);
    if (!existing) throw new NotFound(scheduleMessages.classNotFound);
    const { cancelCutoffHours } = await settingsOf(tx, actor.orgId);
    const coachName = await checkReferences(tx, actor.orgId, input);
    const columns = classColumns(input, coachName);
    // The series keeps the zone it was made in: its times are that zone's wall clock.
    const wanted = occurrencesOf(seriesOf(input, columns.rrule, existing.timeZone));
    if (wanted.length === 0) throw new RuleBroken(scheduleMessages.start);
    const upcoming = await repo.upcomingOccurrencesOf(tx, classId, now);
    for (const occurrence of upcoming)
      if (!occurrence.detached && occurrence.bookedCount > input.capacity)
        throw new RuleBroken(scheduleMessages.capacityBelowBooked);
    const saved = await repo.updateClass(tx, classId, columns);
    const byDay = new Map(wanted.map((o) => [o.day, o]));
    const known = await repo.ruleDaysOf(tx, classId);
    let kept = 0;
    const moved: string[] = [];
    const ctx = { jobs: context.jobs, now, actorUserId: actor.userId };
    for (const occurrence of upcoming) {
      if (occurrence.detached) {
        kept += 1;
        continue;
      }
      const next = byDay.get(occurrence.ruleDay);
      if (!next || next.start <= now.getTime()) {
        // The new rule has no such day: cancelled (a tombstone when nobody was on it).
        const people = await cancelBookingsOf(tx, occurrence, ctx);
        await repo.updateOccurrence(
          tx,
          occurrence.id,
          people > 0 ? { status: 'cancelled' } : { deleted: true },
        );
        continue;
      }
      const timeChanged = next.start !== occurrence.startsAt.getTime();
      if (timeChanged) moved.push(...(await placesOn(tx, occurrence)));
      const updated = await repo.updateOccurrence(tx, occurrence.id, {
        kind: saved.kind,
        title: saved.title,
        location: saved.location,
        coachUserId: saved.coachUserId,
        coachName: saved.coachName,
        capacity: saved.capacity,
        startsAt: new Date(next.start),
        endsAt: new Date(next.end),
        cancelBy: new Date(cancelByOf(next.start, cancelCutoffHours)),
      });
      if (updated.capacity > occurrence.capacity) await fillFreedPlaces(tx, updated, ctx);
    }
    const added = wanted.filter((o) => !known.has(o.day) && o.start > now.getTime());
    await repo.insertOccurrences(
      tx,
      added.map((o) => ({
        orgId: actor.orgId,
        classId,
        ruleDay: o.day,
        kind: saved.kind,
        title: saved.title,
        location: saved.location,
        coachUserId: saved.coachUserId,
        coachName: saved.coachName,
        startsAt: new Date(o.start),
        endsAt: new Date(o.end),
        capacity: saved.capacity,
        cancelBy: new Date(cancelByOf(o.start, cancelCutoffHours)),
      })),
    );
    if (moved.length && context.jobs)
      await context.jobs.enqueue(
        'booking-notice',
        { orgId: actor.orgId, kind: 'class-moved', bookingIds: moved.slice(0, 1000) },
        { tx },
      );
    await announce(tx, actor.orgId);
    return {
      class: classToDoc(saved),
      occurrences: upcoming.length - kept + added.length,
      kept,
      message: null,
    };
  });
}

/** Changes or cancels one occurrence; it then keeps its own details when the series changes. */
export async function editOccurrence(
  db: Db,
  actor: ScheduleActor,
  occurrenceId: string,
  edit: OccurrenceEdit,
  context: ScheduleContext,
) {
  return db.transaction(async (tx) => {
    const now = context.now ?? new Date();
    await holdBookingWriters(tx, actor.orgId, { occurrenceId });
    const [occurrence] = await repo.lockOccurrences(tx, actor.orgId, [occurrenceId]);
    if (!occurrence) throw new NotFound(scheduleMessages.occurrenceNotFound);
    if (occurrence.endsAt.getTime() <= now.getTime())
      throw new RuleBroken(scheduleMessages.occurrencePast);
    const { timeZone, cancelCutoffHours } = await settingsOf(tx, actor.orgId);
    const ctx = { jobs: context.jobs, now, actorUserId: actor.userId };
    if (edit.cancelled === true && occurrence.status !== 'cancelled') {
      await cancelBookingsOf(tx, occurrence, ctx);
      const saved = await repo.updateOccurrence(tx, occurrence.id, {
        status: 'cancelled',
        detached: true,
      });
      await announce(tx, actor.orgId);
      return saved;
    }
    const set: Partial<repo.NewOccurrenceRow> = { detached: true };
    if (edit.cancelled === false) set.status = 'scheduled';
    if (edit.location !== undefined) set.location = edit.location;
    if (edit.coachUserId !== undefined) {
      const coachName = edit.coachUserId
        ? await repo.staffNameOf(tx, actor.orgId, edit.coachUserId)
        : null;
      if (edit.coachUserId && !coachName) throw new RuleBroken(scheduleMessages.coachUnknown);
      set.coachUserId = edit.coachUserId;
      set.coachName = coachName;
    }
    if (edit.capacity !== undefined) {
      if (edit.capacity < occurrence.bookedCount)
        throw new RuleBroken(scheduleMessages.capacityBelowBooked);
      set.capacity = edit.capacity;
    }
    let moved = false;
    if (edit.start !== undefined || edit.durationMinutes !== undefined) {
      const startIso = edit.start
        ? instantOfWallInput(edit.start, timeZone)
        : occurrence.startsAt.toISOString();
      if (!startIso) throw new RuleBroken(scheduleMessages.start);
      const start = Date.parse(startIso);
      const duration =
        edit.durationMinutes ??
        (occurrence.endsAt.getTime() - occurrence.startsAt.getTime()) / 60_000;
      moved = start !== occurrence.startsAt.getTime();
      set.startsAt = new Date(start);
      set.endsAt = new Date(start + duration * 60_000);
      set.cancelBy = new Date(cancelByOf(start, cancelCutoffHours));
    }
    const movedPeople = moved ? await placesOn(tx, occurrence) : [];
    const saved = await repo.updateOccurrence(tx, occurrence.id, set);
    if (saved.capacity > occurrence.capacity) await fillFreedPlaces(tx, saved, ctx);
    if (movedPeople.length && context.jobs)
      await context.jobs.enqueue(
        'booking-notice',
        { orgId: actor.orgId, kind: 'class-moved', bookingIds: movedPeople.slice(0, 1000) },
        { tx },
      );
    await announce(tx, actor.orgId);
    return saved;
  });
}

export async function bookingSettingsOf(db: Db, orgId: string): Promise<BookingSettings> {
  const { cancelCutoffHours } = await settingsOf(db, orgId);
  return { cancelCutoffHours };
}

/** The organisation's cut-off; every class time that has not started moves its cancel-by. */
export async function saveBookingSettings(
  db: Db,
  actor: ScheduleActor,
  settings: BookingSettings,
): Promise<BookingSettings> {
  return db.transaction(async (tx) => {
    await repo.saveCancelCutoff(tx, actor.orgId, settings.cancelCutoffHours);
    await repo.moveCancelBy(tx, actor.orgId, settings.cancelCutoffHours, new Date());
    await notifyChange(tx, { collection: 'occurrences', orgId: actor.orgId, ownerIds: [] });
    return settings;
  });
}

/** Who may lead a class: the organisation's staff. */
export async function coachesOf(db: Db, orgId: string) {
  return { coaches: await repo.staffOf(db, orgId) };
}
