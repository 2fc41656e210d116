import type { FastifyInstance, FastifyRequest } from 'fastify';
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
import { addCustomer } from './add-customer.service.ts';
import { requireCrmStaff } from './crm.access.ts';
import { addCustomerLimits } from './crm.limits.ts';
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
import { requireSession, type SessionContext } from '../plugins/session.ts';

const rosterParams = z.object({ rosterId: z.string().min(1).max(100) });
const rosterIdOf = (request: FastifyRequest) => rosterParams.parse(request.params).rosterId;

/** The CRM API (issue 7); paths and shapes in schema/src/crm/crm.zod.ts. */
export async function crmRoutes(app: FastifyInstance) {
  app.get('/api/crm/customers', async (request) => {
    // Staff first: a caller without the claim learns nothing about the query's shape.
    const staff = await requireCrmStaff(request);
    const query = rosterSearchQuerySchema.parse(request.query);
    return searchRoster(app.db, { orgId: staff.orgId, ...query });
  });

  app.post('/api/crm/customers', async (request, reply) => {
    const staff = await requireCrmStaff(request);
    // The phone is read as a number of the organisation's country (decision 0051).
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

  app.get('/api/crm/customers/:rosterId', async (request) =>
    customerProfile(app.db, await requireCrmStaff(request), rosterIdOf(request)),
  );

  app.put('/api/crm/customers/:rosterId/tags', async (request) => {
    const staff = await requireCrmStaff(request);
    const { tags } = setTagsRequestSchema.parse(request.body);
    return setCustomerTags(app.db, staff, rosterIdOf(request), tags);
  });

  app.post('/api/crm/customers/:rosterId/notes', async (request, reply) => {
    const staff = await requireCrmStaff(request);
    const { body } = addNoteRequestSchema.parse(request.body);
    return reply.code(201).send(await addCustomerNote(app.db, staff, rosterIdOf(request), body));
  });

  app.post('/api/crm/customers/:rosterId/metrics', async (request, reply) => {
    const staff = await requireCrmStaff(request);
    const metric = addMetricRequestSchema.parse(request.body);
    return reply
      .code(201)
      .send(await addCustomerMetric(app.db, staff, rosterIdOf(request), metric));
  });

  app.get('/api/crm/redirect', async (request) => {
    const staff = await requireCrmStaff(request);
    return resolveCustomer(app.db, staff, crmRedirectQuerySchema.parse(request.query));
  });

  app.get('/api/crm/tags', async (request) => {
    const staff = await requireCrmStaff(request);
    return { tags: await tagsOfOrg(app.db, staff.orgId) };
  });

  // The invited person's side (decision 0035): organisations waiting for their answer.
  app.get('/api/invitations', async (request) => {
    const { user } = await requireSession(request);
    return listPendingInvitations(app.db, user.id);
  });

  app.post('/api/invitations/:invitationId/accept', async (request) =>
    acceptInvitation(app.db, answererOf(await requireSession(request)), invitationIdOf(request)),
  );

  app.post('/api/invitations/:invitationId/decline', async (request) =>
    declineInvitation(app.db, answererOf(await requireSession(request)), invitationIdOf(request)),
  );
}

const invitationParams = z.object({ invitationId: z.uuid() });
const invitationIdOf = (request: FastifyRequest) =>
  invitationParams.parse(request.params).invitationId;
const answererOf = (current: SessionContext) => ({
  userId: current.user.id,
  switchedFrom: keyboardOf(current),
});
