import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  contactListMemberParamsSchema,
  contactListParamsSchema,
  contactListRequestSchema,
  customerContactListsParamsSchema,
} from '@platform/schema/crm/contact-lists.zod';
import { crmStaffFirst, requireCrmStaff } from './crm.access.ts';
import {
  addContactListMember,
  contactListMembers,
  contactListsOf,
  contactListsOfCustomer,
  createContactList,
  deleteContactList,
  removeContactListMember,
  renameContactList,
} from './contact-lists.service.ts';

/** Contact lists (issue 17); paths and shapes in schema/src/crm/contact-lists.zod.ts. */
export async function contactListRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const withList = { schema: { params: contactListParamsSchema }, preValidation: crmStaffFirst };
  const withMember = {
    schema: { params: contactListMemberParamsSchema },
    preValidation: crmStaffFirst,
  };

  api.get('/api/contact-lists', async (request) => ({
    lists: await contactListsOf(app.db, await requireCrmStaff(request)),
  }));

  api.post(
    '/api/contact-lists',
    { schema: { body: contactListRequestSchema }, preValidation: crmStaffFirst },
    async (request, reply) => {
      const staff = await requireCrmStaff(request);
      return reply.code(201).send(await createContactList(app.db, staff, request.body.name));
    },
  );

  api.patch(
    '/api/contact-lists/:id',
    {
      schema: { params: contactListParamsSchema, body: contactListRequestSchema },
      preValidation: crmStaffFirst,
    },
    async (request) =>
      renameContactList(
        app.db,
        await requireCrmStaff(request),
        request.params.id,
        request.body.name,
      ),
  );

  api.delete('/api/contact-lists/:id', withList, async (request, reply) => {
    await deleteContactList(app.db, await requireCrmStaff(request), request.params.id);
    return reply.code(204).send();
  });

  api.get('/api/contact-lists/:id/members', withList, async (request) =>
    contactListMembers(app.db, await requireCrmStaff(request), request.params.id),
  );

  api.put('/api/contact-lists/:id/members/:userId', withMember, async (request, reply) => {
    const { id, userId } = request.params;
    await addContactListMember(app.db, await requireCrmStaff(request), id, userId);
    return reply.code(204).send();
  });

  api.delete('/api/contact-lists/:id/members/:userId', withMember, async (request, reply) => {
    const { id, userId } = request.params;
    await removeContactListMember(app.db, await requireCrmStaff(request), id, userId);
    return reply.code(204).send();
  });

  api.get(
    '/api/customers/:userId/contact-lists',
    { schema: { params: customerContactListsParamsSchema }, preValidation: crmStaffFirst },
    async (request) =>
      contactListsOfCustomer(app.db, await requireCrmStaff(request), request.params.userId),
  );
}
