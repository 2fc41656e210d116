import {
  timeTrackingPeopleAnswerSchema,
  type TimeTrackingPerson,
} from '@platform/schema/time-tracking/time-tracking.zod';
import { api } from '../../../lib/api.ts';

/** GET /api/time-tracking/people (ours): the staff a manager sees in the team view. */
export async function getPeople(
  orgId: string,
  signal?: AbortSignal,
): Promise<TimeTrackingPerson[]> {
  const answer = await api(`/api/time-tracking/people?${new URLSearchParams({ orgId })}`, {
    schema: timeTrackingPeopleAnswerSchema,
    ...(signal ? { signal } : {}),
  });
  return answer.people;
}
