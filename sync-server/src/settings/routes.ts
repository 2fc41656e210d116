import type { FastifyInstance } from 'fastify';
import { settingsRequestSchema } from '@platform/schema/settings/settings.zod';
import { assertOwnSession } from '../access/act-for.ts';
import { requireSession } from '../plugins/session.ts';
import { SettingsInvalid } from './settings.errors.ts';
import {
  changePassword,
  getSettings,
  updateNotificationPreferences,
  updateProfile,
} from './settings.service.ts';

/** POST /api/settings: the signed-in person's own profile, password and notification choices. */
export async function settingsRoutes(app: FastifyInstance) {
  app.post('/api/settings', async (request, reply) => {
    const session = await requireSession(request);
    const input = settingsRequestSchema.parse(request.body);
    const userId = session.user.id;
    try {
      switch (input.action) {
        case 'get-settings':
          return await getSettings(app.db, userId);
        case 'update-profile':
          return await updateProfile(app.db, userId, input);
        case 'change-password':
          assertOwnSession(session);
          return await changePassword(
            app.db,
            { userId, sessionId: session.sessionId, ip: request.ip },
            input,
          );
        case 'update-notification-preferences':
          return await updateNotificationPreferences(app.db, userId, input.notificationPreferences);
      }
    } catch (error) {
      // Field errors answer in the shape the forms read (as signup does), not the general body.
      if (error instanceof SettingsInvalid) return reply.code(400).send(error.toBody());
      throw error;
    }
  });
}
