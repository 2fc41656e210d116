import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addCustomerRequestSchemaFor,
  addMetricRequestSchema,
  addNoteRequestSchema,
  crmRedirectQuerySchema,
  rosterSearchQuerySchema,
  setTagsRequestSchema,
} from '@platform/schema/crm/crm.zod';
import { keyboardOf } from '../access/act-for.ts';
import { addressSubject, enforce } from '../rate-limits/rate-limits.ts';
import { addCustomer, resendInvitation } from './add-customer.service.ts';
import { crmStaffFirst, requireCrmStaff } from './crm.access.ts';
import { addCustomerLimits, resendInvitationLimits } from './crm.limits.ts';
import {
  addCustomerMetric,
  addCustomerNote,
  customerProfile,
  resolveCustomer,
  setCustomerTags,
} from './customers.service.ts';
import { tagsOfOrg } from './customers.repository.ts';
import {
  acceptInvitation,
  declineInvitation,
  listPendingInvitations,
} from './join-invitations.service.ts';
import { searchRoster } from './roster-search.repository.ts';
import { organizationRegion } from '../organizations/organizations.service.ts';
import { requireSession, sessionFirst, type SessionContext } from '../plugins/session.ts';

const rosterParams = z.object({ rosterId: z.string().min(1).max(100) });
const invitationParams = z.object({ invitationId: z.uuid() });

/** The CRM API (issue 7); paths and shapes in schema/src/crm/crm.zod.ts. */
export async function crmRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/api/crm/customers',
    { schema: { querystring: rosterSearchQuerySchema }, preValidation: crmStaffFirst },
    async (request) => {
      const staff = await requireCrmStaff(request);
      return searchRoster(app.db, { orgId: staff.orgId, ...request.query });
    },
  );

  api.post('/api/crm/customers', async (request, reply) => {
    const staff = await requireCrmStaff(request);
    // The phone is read as a number of the organisation's country (decision 0051): the body's
    // schema depends on the organisation, so it cannot be declared once for the route.
    const { country } = await organizationRegion(app.db, staff.orgId);
    const input = addCustomerRequestSchemaFor(country).parse(request.body);
    await enforce(app.db, [
      { rule: addCustomerLimits.perStaff, subject: staff.userId },
      { rule: addCustomerLimits.perAddress, subject: addressSubject(request.ip) },
    ]);
    const deps = {
      db: app.db,
      mailer: app.mailer,
      publicUrl: app.config.publicUrl,
      log: request.log,
    };
    return reply.code(201).send(await addCustomer(deps, staff, input));
  });

  api.get(
    '/api/crm/customers/:rosterId',
    { schema: { params: rosterParams }, preValidation: crmStaffFirst },
    async (request) =>
      customerProfile(app.db, await requireCrmStaff(request), request.params.rosterId),
  );

  // Issue 14: send the invitation again (a new link; the old ones stop working).
  api.post(
    '/api/crm/customers/:rosterId/invitation',
    { schema: { params: rosterParams }, preValidation: crmStaffFirst },
    async (request) => {
      const staff = await requireCrmStaff(request);
      await enforce(app.db, [
        { rule: resendInvitationLimits.perStaff, subject: staff.userId },
        {
          rule: resendInvitationLimits.perCustomer,
          subject: `${staff.orgId}:${request.params.rosterId}`,
        },
      ]);
      const deps = {
        db: app.db,
        mailer: app.mailer,
        publicUrl: app.config.publicUrl,
        log: request.log,
      };
      return resendInvitation(deps, staff, request.params.rosterId);
    },
  );

  api.put(
    '/api/crm/customers/:rosterId/tags',
    { schema: { params: rosterParams, body: setTagsRequestSchema }, preValidation: crmStaffFirst },
    async (request) => {
      const staff = await requireCrmStaff(request);
      return setCustomerTags(app.db, staff, request.params.rosterId, request.body.tags);
    },
  );

  api.post(
    '/api/crm/customers/:rosterId/notes',
    { schema: { params: rosterParams, body: addNoteRequestSchema }, preValidation: crmStaffFirst },
    async (request, reply) => {
      const staff = await requireCrmStaff(request);
      const note = await addCustomerNote(app.db, staff, request.params.rosterId, request.body.body);
      return reply.code(201).send(note);
    },
  );

  api.post(
    '/api/crm/customers/:rosterId/metrics',
    {
      schema: { params: rosterParams, body: addMetricRequestSchema },
      preValidation: crmStaffFirst,
    },
    async (request, reply) => {
      const staff = await requireCrmStaff(request);
      const metric = await addCustomerMetric(app.db, staff, request.params.rosterId, request.body);
      return reply.code(201).send(metric);
    },
  );

  api.get(
    '/api/crm/redirect',
    { schema: { querystring: crmRedirectQuerySchema }, preValidation: crmStaffFirst },
    async (request) => resolveCustomer(app.db, await requireCrmStaff(request), request.query),
  );

  api.get('/api/crm/tags', async (request) => {
    const staff = await requireCrmStaff(request);
    return { tags: await tagsOfOrg(app.db, staff.orgId) };
  });

  // The invited person's side (decision 0035): organisations waiting for their answer.
  api.get('/api/invitations', async (request) => {
    const { user } = await requireSession(request);
    return listPendingInvitations(app.db, user.id);
  });

  api.post(
    '/api/invitations/:invitationId/accept',
    { schema: { params: invitationParams }, preValidation: sessionFirst },
    async (request) =>
      acceptInvitation(
        app.db,
        answererOf(await requireSession(request)),
        request.params.invitationId,
      ),
  );

  api.post(
    '/api/invitations/:invitationId/decline',
    { schema: { params: invitationParams }, preValidation: sessionFirst },
    async (request) =>
      declineInvitation(
        app.db,
        answererOf(await requireSession(request)),
        request.params.invitationId,
      ),
  );
}

const answererOf = (current: SessionContext) => ({
  userId: current.user.id,
  switchedFrom: keyboardOf(current),
});
