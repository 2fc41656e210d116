import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  changeMemberInputSchema,
  inviteStaffInputSchema,
  teamInvitationTokenInputSchema,
} from '@platform/schema/team/team.zod';
import { requireSession } from '../plugins/session.ts';
import { enforce } from '../rate-limits/rate-limits.ts';
import {
  acceptTeamInvitation,
  declineTeamInvitation,
  previewTeamInvitation,
} from './join-team.service.ts';
import { requireTeamManager, type TeamManager } from './team.access.ts';
import { teamInvitationLimits } from './team.limits.ts';
import {
  cancelInvitation,
  changeMember,
  inviteStaff,
  removeMember,
  resendInvitation,
  teamOf,
} from './team.service.ts';

const memberParams = z.object({ userId: z.uuid() });
const invitationParams = z.object({ invitationId: z.uuid() });
const userIdOf = (request: FastifyRequest) => memberParams.parse(request.params).userId;
const invitationIdOf = (request: FastifyRequest) =>
  invitationParams.parse(request.params).invitationId;

/** The Team section (issue 14): always the session's organisation, claim manage-org-staff. */
export async function teamRoutes(app: FastifyInstance) {
  const deps = () => ({ db: app.db, mailer: app.mailer, publicUrl: app.config.publicUrl });
  /** Each send of an invitation email counts, per manager and per organisation. */
  const spendOnSend = (manager: TeamManager) =>
    enforce(app.db, [
      { rule: teamInvitationLimits.perManager, subject: manager.userId },
      { rule: teamInvitationLimits.perOrg, subject: manager.orgId },
    ]);

  app.get('/api/team', async (request) => teamOf(app.db, await requireTeamManager(request)));

  app.post('/api/team/invitations', async (request, reply) => {
    const manager = await requireTeamManager(request);
    const input = inviteStaffInputSchema.parse(request.body);
    await spendOnSend(manager);
    return reply.code(201).send(await inviteStaff(deps(), manager, input));
  });

  app.post('/api/team/invitations/:invitationId/resend', async (request) => {
    const manager = await requireTeamManager(request);
    const invitationId = invitationIdOf(request);
    await spendOnSend(manager);
    return resendInvitation(deps(), manager, invitationId);
  });

  app.delete('/api/team/invitations/:invitationId', async (request) => {
    const manager = await requireTeamManager(request);
    return cancelInvitation(app.db, manager, invitationIdOf(request));
  });

  app.put('/api/team/members/:userId', async (request) => {
    const manager = await requireTeamManager(request);
    const userId = userIdOf(request);
    return changeMember(app.db, manager, userId, changeMemberInputSchema.parse(request.body));
  });

  app.delete('/api/team/members/:userId', async (request) => {
    const manager = await requireTeamManager(request);
    return removeMember(app.db, manager, userIdOf(request));
  });

  // The invited person's side: the emailed token opens it (public preview, signed-in answers).
  app.post('/api/team-invitations/preview', async (request) => {
    const { token } = teamInvitationTokenInputSchema.parse(request.body);
    return previewTeamInvitation(app.db, token);
  });

  app.post('/api/team-invitations/accept', async (request, reply) => {
    const current = await requireSession(request);
    const { token } = teamInvitationTokenInputSchema.parse(request.body);
    const joined = await acceptTeamInvitation(app.db, current, token);
    // The person is now staff: their session continues in the organisation's view.
    await app.sessions.start(reply, {
      userId: current.user.id,
      view: 'org',
      orgId: joined.orgId,
      userAgent: request.headers['user-agent'],
    });
    return joined;
  });

  app.post('/api/team-invitations/decline', async (request) => {
    const current = await requireSession(request);
    const { token } = teamInvitationTokenInputSchema.parse(request.body);
    return declineTeamInvitation(app.db, current, token);
  });
}
