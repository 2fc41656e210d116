import {
  testNoticeAnswerSchema,
  type TestNoticeAnswer,
} from '@platform/schema/notifications/notifications.zod';
import { api } from '../../../lib/api.ts';

/** POST /api/notifications send-test-notification: a test notice to my own devices (queued). */
export function sendTestNotification(orgId: string): Promise<TestNoticeAnswer> {
  return api('/api/notifications', {
    json: { action: 'send-test-notification', orgId },
    schema: testNoticeAnswerSchema,
  });
}
