import type { FastifyRequest } from 'fastify';
import { Forbidden } from '../plugins/domain-errors.ts';
import { requireSession } from '../plugins/session.ts';
import { orgPlatformOf } from './schedule.repository.ts';
import type { ScheduleActor } from './schedule.service.ts';

export const SCHEDULE_CLAIM = 'manage-schedule';

/**
 * Staff with manage-schedule in the session's organisation, org view — and not on the Jobber
 * platform, which has no schedule (spec §6). Everything the schedule routes read or write is
 * filtered by this orgId, so another organisation's ids answer 404.
 */
export async function requireScheduleManager(request: FastifyRequest): Promise<ScheduleActor> {
  const { session, user, claims } = await requireSession(request);
  if (session.view !== 'org' || !session.orgId || !claims.includes(SCHEDULE_CLAIM)) {
    throw new Forbidden('You cannot manage this organisation’s schedule.');
  }
  if ((await orgPlatformOf(request.server.db, session.orgId)) === 'jobber')
    throw new Forbidden('This organisation’s platform has no schedule.');
  return { orgId: session.orgId, userId: user.id };
}
