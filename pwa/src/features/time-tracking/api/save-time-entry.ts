import type { EntryTimes } from '@platform/schema/time-tracking/time-totals.rules';
import {
  timeEntryDocSchema,
  type TimeEntryDoc,
} from '@platform/schema/time-tracking/time-entry.zod';
import type {
  CreateTimeEntryInput,
  UpdateTimeEntryInput,
} from '@platform/schema/time-tracking/time-tracking.zod';
import { api } from '../../../lib/api.ts';

/** spec §7 POST /api/time-tracking, action create-time-entry: for `userId` (a manager's) or oneself. */
export function createTimeEntry(
  orgId: string,
  userId: string,
  times: EntryTimes,
): Promise<TimeEntryDoc> {
  return api('/api/time-tracking', {
    json: {
      action: 'create-time-entry',
      orgId,
      timeEntry: { ...times, userId },
    } satisfies CreateTimeEntryInput,
    schema: timeEntryDocSchema,
  });
}

/** spec §7 POST /api/time-tracking, action update-time-entry: new times for an entry. */
export function updateTimeEntry(
  orgId: string,
  entryId: string,
  times: EntryTimes,
): Promise<TimeEntryDoc> {
  return api('/api/time-tracking', {
    json: {
      action: 'update-time-entry',
      orgId,
      entryId,
      timeEntry: times,
    } satisfies UpdateTimeEntryInput,
    schema: timeEntryDocSchema,
  });
}
