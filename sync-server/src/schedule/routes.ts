import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  bookingSettingsSchema,
  classIdParamsSchema,
  classInputSchema,
  classSavedResponseSchema,
  coachesResponseSchema,
  occurrenceEditSchema,
  occurrenceIdParamsSchema,
} from '@platform/schema/schedule/schedule.zod';
import { requireScheduleManager } from './schedule.access.ts';
import {
  bookingSettingsOf,
  coachesOf,
  createClass,
  editOccurrence,
  occurrenceToDoc,
  saveBookingSettings,
  updateSeries,
} from './schedule.service.ts';

/** The schedule routes read nothing before the claim is checked (403 before 400). */
const managerFirst = async (request: FastifyRequest) => {
  await requireScheduleManager(request);
};

/**
 * The schedule (issue 16) for staff with manage-schedule. What they change replicates to every
 * member's device (collections `classes`, `occurrences`); bookings are replicated writes.
 */
export async function scheduleRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/schedule/coaches',
    { schema: { response: { 200: coachesResponseSchema } } },
    async (request) => coachesOf(app.db, (await requireScheduleManager(request)).orgId),
  );

  api.get('/api/schedule/settings', async (request) => {
    const actor = await requireScheduleManager(request);
    return bookingSettingsOf(app.db, actor.orgId);
  });

  api.put(
    '/api/schedule/settings',
    { schema: { body: bookingSettingsSchema }, preValidation: managerFirst },
    async (request) =>
      saveBookingSettings(app.db, await requireScheduleManager(request), request.body),
  );

  api.post(
    '/api/schedule/classes',
    {
      schema: { body: classInputSchema, response: { 201: classSavedResponseSchema } },
      preValidation: managerFirst,
    },
    async (request, reply) => {
      const actor = await requireScheduleManager(request);
      return reply.code(201).send(await createClass(app.db, actor, request.body));
    },
  );

  api.put(
    '/api/schedule/classes/:classId',
    {
      schema: {
        params: classIdParamsSchema,
        body: classInputSchema,
        response: { 200: classSavedResponseSchema },
      },
      preValidation: managerFirst,
    },
    async (request) =>
      updateSeries(
        app.db,
        await requireScheduleManager(request),
        request.params.classId,
        request.body,
        { jobs: app.jobs },
      ),
  );

  api.patch(
    '/api/schedule/occurrences/:occurrenceId',
    {
      schema: { params: occurrenceIdParamsSchema, body: occurrenceEditSchema },
      preValidation: managerFirst,
    },
    async (request) => {
      const saved = await editOccurrence(
        app.db,
        await requireScheduleManager(request),
        request.params.occurrenceId,
        request.body,
        { jobs: app.jobs },
      );
      const { _deleted: _gone, ...doc } = occurrenceToDoc(saved);
      return doc;
    },
  );
}
