import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { settingsRequestSchema } from '@platform/schema/settings/settings.zod';
import { assertOwnSession } from '../access/act-for.ts';
import { requireSession, sessionFirst } from '../plugins/session.ts';
import {
  changePassword,
  getSettings,
  updateNotificationPreferences,
  updateProfile,
} from './settings.service.ts';

/**
 * POST /api/settings: the signed-in person's own profile, password and notification choices.
 * Field errors (SettingsInvalid) answer in the shape the forms read, through the error map.
 */
export async function settingsRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/settings',
    { schema: { body: settingsRequestSchema }, preValidation: sessionFirst },
    async (request) => {
      const session = await requireSession(request);
      const input = request.body;
      const userId = session.user.id;
      switch (input.action) {
        case 'get-settings':
          return getSettings(app.db, userId);
        case 'update-profile':
          return updateProfile(app.db, userId, input);
        case 'change-password':
          assertOwnSession(session);
          return changePassword(
            app.db,
            { userId, sessionId: session.sessionId, ip: request.ip },
            input,
          );
        case 'update-notification-preferences':
          return updateNotificationPreferences(app.db, userId, input.notificationPreferences);
      }
    },
  );
}
