import { accessTo } from '@platform/schema/sync/access.rules';
import { addDays, orgTimeZone, startOfDay } from '@platform/schema/time-tracking/org-calendar';
import type {
  ExportTimeEntriesQuery,
  TimeTrackingPerson,
} from '@platform/schema/time-tracking/time-tracking.zod';
import type { Db } from '../db/open-database.ts';
import { findOrganization } from '../organizations/organizations.service.ts';
import type { Actor } from '../sync/actor.ts';
import type { ReportUnreadable } from '../sync/read-document.ts';
import { csvDocument, payrollCsvHeader, payrollRecord } from './payroll-csv.ts';
import { assertMayManage } from './time-tracking.service.ts';
import {
  listEntriesWithPeople,
  listTimeTrackingPeople,
} from './time-tracking-reports.repository.ts';

/** The team view's people: managers only (manage-others-time-tracking). */
export async function timeTrackingPeople(
  db: Db,
  actor: Actor,
  orgId: string,
): Promise<{ people: TimeTrackingPerson[] }> {
  assertMayManage(actor, orgId, null);
  return { people: await listTimeTrackingPeople(db, orgId) };
}

/**
 * The payroll CSV of the entries that start on the days `from` to `to` in the organisation's
 * zone — each entry in exactly one export of consecutive ranges. Managers export everyone (or
 * `userId`); a person with manage-own-time-tracking only their own entries. An entry that
 * cannot be read is left out and reported (decision 0040), not allowed to fail the export.
 */
export async function exportPayrollCsv(
  db: Db,
  actor: Actor,
  query: ExportTimeEntriesQuery,
  { reportUnreadable, now = new Date() }: { reportUnreadable: ReportUnreadable; now?: Date },
): Promise<{ filename: string; body: string }> {
  const ownOnly = accessTo('time-entries', actor)?.reach !== 'all';
  const userId = query.userId ?? (ownOnly ? actor.userId : null);
  assertMayManage(actor, query.orgId, userId);
  const org = await findOrganization(db, query.orgId);
  const timeZone = orgTimeZone(org?.attributes.timezone);
  const entries = await listEntriesWithPeople(
    db,
    {
      orgId: query.orgId,
      userId,
      from: new Date(startOfDay(query.from, timeZone)),
      to: new Date(startOfDay(addDays(query.to, 1), timeZone)),
    },
    reportUnreadable,
  );
  const records = entries.map((entry) => payrollRecord(entry, timeZone, now.getTime()));
  return {
    filename: `time-entries-${query.from}-to-${query.to}.csv`,
    body: csvDocument([payrollCsvHeader, ...records]),
  };
}
