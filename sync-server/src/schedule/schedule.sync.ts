import type { ClassDoc, OccurrenceDoc } from '@platform/schema/schedule/schedule.zod';
import type { WireDoc } from '../sync/collection-definition.ts';
import type { ClassRow, OccurrenceRow } from './schedule.repository.ts';

// The replication registry (sync/collections) reads the schedule's rows as documents through
// here; schedule.service.ts writes them and announces each change (decision 0066).

export function classToDoc(row: ClassRow): WireDoc<ClassDoc> {
  return {
    id: row.id,
    orgId: row.orgId,
    kind: row.kind,
    title: row.title,
    description: row.description,
    location: row.location,
    coachUserId: row.coachUserId,
    coachName: row.coachName,
    capacity: row.capacity,
    priceMinor: row.priceMinor,
    currency: row.currency,
    entitlingProductIds: row.entitlingProductIds,
    punchCardGroupIds: row.punchCardGroupIds,
    firstStart: row.firstStart,
    durationMinutes: row.durationMinutes,
    rrule: row.rrule,
    timeZone: row.timeZone,
    updatedAt: row.updatedAt.toISOString(),
    _deleted: row.deleted,
  };
}

export function occurrenceToDoc(row: OccurrenceRow): WireDoc<OccurrenceDoc> {
  return {
    id: row.id,
    orgId: row.orgId,
    classId: row.classId,
    appointmentTypeId: row.appointmentTypeId,
    kind: row.kind,
    title: row.title,
    location: row.location,
    coachUserId: row.coachUserId,
    coachName: row.coachName,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    capacity: row.capacity,
    bookedCount: row.bookedCount,
    waitlistCount: row.waitlistCount,
    cancelBy: row.cancelBy.toISOString(),
    status: row.status,
    detached: row.detached,
    updatedAt: row.updatedAt.toISOString(),
    _deleted: row.deleted,
  };
}
