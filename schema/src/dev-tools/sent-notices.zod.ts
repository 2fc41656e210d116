import { z } from 'zod';
import { noticeStatuses } from '../notifications/notifications.zod.ts';

/** GET /api/dev/notifications: notices the Notifier recorded (one per recipient), newest first. */
export const sentNoticeSchema = z.object({
  id: z.number().int(),
  orgId: z.uuid().nullable(),
  userId: z.uuid().nullable(),
  /** Whom it was for, as the dev page shows it (email or name). */
  recipient: z.string().nullable(),
  title: z.string(),
  body: z.string(),
  url: z.string().nullable(),
  adapter: z.string(),
  deviceCount: z.number().int(),
  status: z.enum(noticeStatuses),
  error: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type SentNotice = z.infer<typeof sentNoticeSchema>;
