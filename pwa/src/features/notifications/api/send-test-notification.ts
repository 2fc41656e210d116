import {
  noticeOutcomeSchema,
  type NoticeOutcome,
} from '@platform/schema/notifications/notifications.zod';
import { api } from '../../../lib/api.ts';

/** POST /api/notifications send-test-notification: a test notice to my own devices. */
export function sendTestNotification(orgId: string): Promise<NoticeOutcome> {
  return api('/api/notifications', {
    json: { action: 'send-test-notification', orgId },
    schema: noticeOutcomeSchema,
  });
}
