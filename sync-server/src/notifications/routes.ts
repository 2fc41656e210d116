import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { notificationsRequestSchema } from '@platform/schema/notifications/notifications.zod';
import { requireClaim, requireSession, sessionFirst } from '../plugins/session.ts';
import {
  forgetDevice,
  notificationConfigFor,
  registerDevice,
  sendTestNotification,
} from './notifications.service.ts';

const ok = { success: true } as const;

/** spec §7 POST /api/notifications: one endpoint, the operation named by `action`. */
export async function notificationRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/notifications',
    // Signed in first: a caller without a session learns nothing about the body's shape.
    { schema: { body: notificationsRequestSchema }, preValidation: sessionFirst },
    async (request) => {
      const session = await requireSession(request);
      const input = request.body;
      switch (input.action) {
        case 'add-notification-token':
          await registerDevice(app.db, session, input, request.headers['user-agent']);
          return ok;
        case 'remove-notification-token':
          await forgetDevice(app.db, session, input.deviceId);
          return ok;
        case 'get-notification-config':
          return notificationConfigFor(app.db, app.notifier, session, input.deviceId);
        case 'send-test-notification': {
          const staff = await requireClaim(request, input.orgId, ['manage-org-branding']);
          return sendTestNotification(app.db, app.jobs, app.notifier, staff, input.orgId);
        }
      }
    },
  );
}
