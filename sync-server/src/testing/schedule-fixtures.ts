import { classOccurrences, scheduleClasses } from '@platform/schema/db';
import type { Db } from '../db/open-database.ts';

/**
 * A class with one occurrence, written directly (the schedule routes have their own tests):
 * for tests of bookings. Starts a day from now unless told otherwise.
 */
export async function insertOccurrence(
  db: Db,
  orgId: string,
  options: {
    capacity?: number;
    startsAt?: Date;
    cancelBy?: Date;
    priceMinor?: number | null;
    entitlingProductIds?: string[];
    punchCardGroupIds?: string[];
    title?: string;
  } = {},
) {
  const startsAt = options.startsAt ?? new Date(Date.now() + 86_400_000);
  const [series] = await db
    .insert(scheduleClasses)
    .values({
      orgId,
      kind: 'class',
      title: options.title ?? 'Spin',
      capacity: options.capacity ?? 10,
      priceMinor: options.priceMinor ?? null,
      currency: 'USD',
      entitlingProductIds: options.entitlingProductIds ?? [],
      punchCardGroupIds: options.punchCardGroupIds ?? [],
      firstStart: startsAt.toISOString().slice(0, 16),
      durationMinutes: 60,
      timeZone: 'UTC',
    })
    .returning();
  const [occurrence] = await db
    .insert(classOccurrences)
    .values({
      orgId,
      classId: series!.id,
      ruleDay: startsAt.toISOString().slice(0, 10),
      kind: 'class',
      title: series!.title,
      startsAt,
      endsAt: new Date(startsAt.getTime() + 3_600_000),
      capacity: series!.capacity,
      cancelBy: options.cancelBy ?? new Date(startsAt.getTime() - 2 * 3_600_000),
    })
    .returning();
  return { series: series!, occurrence: occurrence! };
}

/** A class made as staff make it (the schedule service): for end-to-end tests. */
export { createClass as createClassAsStaff } from '../schedule/schedule.service.ts';

/** An appointment type made as staff make it (the appointments service): for end-to-end tests. */
export { createAppointmentType as createAppointmentTypeAsStaff } from '../schedule/appointments.service.ts';
