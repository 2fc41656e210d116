import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  bookingSettingsSchema,
  calendarFeedResponseSchema,
  classIdParamsSchema,
  classInputSchema,
  classSavedResponseSchema,
  coachesResponseSchema,
  occurrenceEditSchema,
  occurrenceIdParamsSchema,
} from '@platform/schema/schedule/schedule.zod';
import {
  appointmentTypeIdParamsSchema,
  appointmentTypeInputSchema,
  availabilityInputSchema,
  staffHoursResponseSchema,
  staffIdParamsSchema,
} from '@platform/schema/schedule/appointments.zod';
import { z } from 'zod';
import { NotFound, Forbidden } from '../plugins/domain-errors.ts';
import { requireSession } from '../plugins/session.ts';
import { addressSubject, enforce, type RateRule } from '../rate-limits/rate-limits.ts';
import {
  calendarFeedOf,
  calendarFeedText,
  makeCalendarFeed,
  revokeCalendarFeed,
} from './calendar-feed.service.ts';
import {
  archiveAppointmentType,
  createAppointmentType,
  saveStaffHours,
  staffHoursOf,
  updateAppointmentType,
} from './appointments.service.ts';
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

/** Guessing feed tokens is hopeless (256 bits); this bounds polling and scraping per address. */
const feedLimit = { name: 'calendar-feed', limit: 120, perMs: 60 * 60_000 } satisfies RateRule;

/** A customer of the organisation the session is in (their own calendar feed). */
async function feedOwnerOf(request: FastifyRequest) {
  const { session, user } = await requireSession(request);
  if (session.view !== 'customer' || !session.orgId)
    throw new Forbidden('Calendar feeds are for customers, in their organization’s app.');
  return { orgId: session.orgId, userId: user.id };
}

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

  api.get(
    '/api/schedule/calendar-feed',
    { schema: { response: { 200: calendarFeedResponseSchema } } },
    async (request) => calendarFeedOf(app.db, await feedOwnerOf(request)),
  );
  api.post(
    '/api/schedule/calendar-feed',
    { schema: { response: { 200: calendarFeedResponseSchema } } },
    async (request) => makeCalendarFeed(app.db, await feedOwnerOf(request), app.config.publicUrl),
  );
  api.delete('/api/schedule/calendar-feed', async (request, reply) => {
    await revokeCalendarFeed(app.db, await feedOwnerOf(request));
    return reply.code(204).send();
  });
  // The feed itself: no session (a calendar app polls it), the secret is the URL.
  api.get(
    '/ics/:file',
    { schema: { params: z.object({ file: z.string().regex(/^[A-Za-z0-9_-]{16,128}\.ics$/) }) } },
    async (request, reply) => {
      await enforce(app.db, [{ rule: feedLimit, subject: addressSubject(request.ip) }]);
      const text = await calendarFeedText(
        app.db,
        request.params.file.replace(/\.ics$/, ''),
        app.config.publicUrl,
      );
      if (text === null) throw new NotFound('There is no such calendar.');
      return reply
        .header('content-type', 'text/calendar; charset=utf-8')
        .header('cache-control', 'private, max-age=300')
        .send(text);
    },
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

  // Appointments: the types customers book, and each staff member's hours.
  api.get(
    '/api/schedule/staff-hours',
    { schema: { response: { 200: staffHoursResponseSchema } } },
    async (request) => staffHoursOf(app.db, (await requireScheduleManager(request)).orgId),
  );
  api.put(
    '/api/schedule/staff-hours/:userId',
    {
      schema: { params: staffIdParamsSchema, body: availabilityInputSchema },
      preValidation: managerFirst,
    },
    async (request) =>
      saveStaffHours(
        app.db,
        await requireScheduleManager(request),
        request.params.userId,
        request.body,
      ),
  );
  api.post(
    '/api/schedule/appointment-types',
    { schema: { body: appointmentTypeInputSchema }, preValidation: managerFirst },
    async (request, reply) => {
      const saved = await createAppointmentType(
        app.db,
        await requireScheduleManager(request),
        request.body,
      );
      const { _deleted: _gone, ...doc } = saved;
      return reply.code(201).send(doc);
    },
  );
  api.put(
    '/api/schedule/appointment-types/:typeId',
    {
      schema: { params: appointmentTypeIdParamsSchema, body: appointmentTypeInputSchema },
      preValidation: managerFirst,
    },
    async (request) => {
      const { _deleted: _gone, ...doc } = await updateAppointmentType(
        app.db,
        await requireScheduleManager(request),
        request.params.typeId,
        request.body,
      );
      return doc;
    },
  );
  api.delete(
    '/api/schedule/appointment-types/:typeId',
    { schema: { params: appointmentTypeIdParamsSchema }, preValidation: managerFirst },
    async (request, reply) => {
      await archiveAppointmentType(
        app.db,
        await requireScheduleManager(request),
        request.params.typeId,
      );
      return reply.code(204).send();
    },
  );
}
