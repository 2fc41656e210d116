import type { TimeEntryDoc } from '@platform/schema/time-tracking/time-entry.zod';
import {
  timeEntriesAnswerSchema,
  type GetTimeEntriesInput,
} from '@platform/schema/time-tracking/time-tracking.zod';
import { api } from '../../../lib/api.ts';

/** spec §7 POST /api/time-tracking, action get-time-entries: entries overlapping [from, to), oldest first. */
export async function getTimeEntries(
  input: Omit<GetTimeEntriesInput, 'action'>,
  signal?: AbortSignal,
): Promise<TimeEntryDoc[]> {
  const answer = await api('/api/time-tracking', {
    json: { action: 'get-time-entries', ...input } satisfies GetTimeEntriesInput,
    schema: timeEntriesAnswerSchema,
    ...(signal ? { signal } : {}),
  });
  return answer.entries.sort((a, b) => Date.parse(a.startTime) - Date.parse(b.startTime));
}
