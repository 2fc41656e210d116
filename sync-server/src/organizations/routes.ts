import type { FastifyInstance } from 'fastify';
import {
  createOrganizationInputSchema,
  setOrganizationTimezoneInputSchema,
} from '@platform/schema/organizations/organizations.zod';
import { claims } from '@platform/schema/organizations/claims';
import { z } from 'zod';
import { assertOwnSession } from '../access/act-for.ts';
import { requireClaim, requireSession } from '../plugins/session.ts';
import { waiverInputSchema } from '@platform/schema/organizations/documents.zod';
import {
  changeOrganizationTimezone,
  changeWaiver,
  createOrganization,
  readOrgHome,
  readWaiver,
} from './organizations.service.ts';

const orgParamsSchema = z.object({ orgId: z.uuid() });

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

  /** The owner's home: setup checklist and today's figures (issue 14), for the org's staff. */
  app.get('/api/organizations/:orgId/home', async (request) => {
    const { orgId } = orgParamsSchema.parse(request.params);
    const session = await requireClaim(request, orgId.toLowerCase(), claims);
    return readOrgHome(app.db, orgId.toLowerCase(), session.claims);
  });

  /** Public: the branded signup links to it before anyone has an account. */
  app.get('/api/organizations/:orgId/documents/waiver-of-liability', async (request) => {
    const { orgId } = orgParamsSchema.parse(request.params);
    return readWaiver(app.db, orgId.toLowerCase());
  });

  app.put('/api/organizations/:orgId/documents/waiver-of-liability', async (request) => {
    const { orgId } = orgParamsSchema.parse(request.params);
    const session = await requireClaim(request, orgId.toLowerCase(), ['manage-org-settings']);
    const input = waiverInputSchema.parse(request.body);
    return changeWaiver(app.db, orgId.toLowerCase(), session.user.id, input);
  });
}
