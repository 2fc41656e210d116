import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createOrganizationInputSchema,
  setOrganizationTimezoneInputSchema,
} from '@platform/schema/organizations/organizations.zod';
import { claims } from '@platform/schema/organizations/claims';
import { z } from 'zod';
import { assertOwnSession } from '../access/act-for.ts';
import { orgClaimFirst, requireClaim, requireSession, sessionFirst } from '../plugins/session.ts';
import { waiverInputSchema } from '@platform/schema/organizations/documents.zod';
import {
  changeOrganizationTimezone,
  changeWaiver,
  createOrganization,
  readOrgHome,
  readWaiver,
} from './organizations.service.ts';

// Ids in lower case, as stored and as sessions carry them.
const orgParamsSchema = z.object({ orgId: z.uuid().transform((id) => id.toLowerCase()) });

export async function organizationRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/api/organizations',
    {
      schema: { body: createOrganizationInputSchema },
      // Becoming an organisation's owner is the account owner's decision: a guardian switched
      // into the account would make it staff, and then act in the staff view (issue 11, A4b).
      preValidation: async (request) => assertOwnSession(await requireSession(request)),
    },
    async (request, reply) => {
      const session = await requireSession(request);
      return reply.code(201).send(await createOrganization(app.db, session.user.id, request.body));
    },
  );

  api.post(
    '/api/organizations/timezone',
    { schema: { body: setOrganizationTimezoneInputSchema }, preValidation: sessionFirst },
    async (request) => {
      await requireClaim(request, request.body.orgId, ['manage-org-settings']);
      return changeOrganizationTimezone(app.db, request.body);
    },
  );

  /** The owner's home: setup checklist and today's figures (issue 14), for the org's staff. */
  api.get(
    '/api/organizations/:orgId/home',
    { schema: { params: orgParamsSchema } },
    async (request) => {
      const { orgId } = request.params;
      const session = await requireClaim(request, orgId, claims);
      return readOrgHome(app.db, orgId, session.claims);
    },
  );

  /** Public: the branded signup links to it before anyone has an account. */
  api.get(
    '/api/organizations/:orgId/documents/waiver-of-liability',
    { schema: { params: orgParamsSchema } },
    async (request) => readWaiver(app.db, request.params.orgId),
  );

  api.put(
    '/api/organizations/:orgId/documents/waiver-of-liability',
    {
      schema: { params: orgParamsSchema, body: waiverInputSchema },
      preValidation: orgClaimFirst(['manage-org-settings']),
    },
    async (request) => {
      const { orgId } = request.params;
      const session = await requireClaim(request, orgId, ['manage-org-settings']);
      return changeWaiver(app.db, orgId, session.user.id, request.body);
    },
  );
}
