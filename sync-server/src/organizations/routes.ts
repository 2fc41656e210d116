import type { FastifyInstance } from 'fastify';
import {
  createOrganizationInputSchema,
  setOrganizationTimezoneInputSchema,
} from '@platform/schema/organizations/organizations.zod';
import { assertOwnSession } from '../access/act-for.ts';
import { requireClaim, requireSession } from '../plugins/session.ts';
import { changeOrganizationTimezone, createOrganization } from './organizations.service.ts';

export async function organizationRoutes(app: FastifyInstance) {
  app.post('/api/organizations', async (request, reply) => {
    const session = await requireSession(request);
    // Becoming an organisation's owner is the account owner's decision: a guardian switched
    // into the account would make it staff, and then act in the staff view (issue 11, A4b).
    assertOwnSession(session);
    const input = createOrganizationInputSchema.parse(request.body);
    return reply.code(201).send(await createOrganization(app.db, session.user.id, input));
  });

  app.post('/api/organizations/timezone', async (request) => {
    await requireSession(request);
    const input = setOrganizationTimezoneInputSchema.parse(request.body);
    await requireClaim(request, input.orgId, ['manage-org-settings']);
    return changeOrganizationTimezone(app.db, input);
  });
}
