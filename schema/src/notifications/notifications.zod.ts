import { z } from 'zod';
import { notificationMessages } from './notifications.messages.ts';

// spec §7 POST /api/notifications: one endpoint, the operation named by `action`, its payload
// beside it. spec names add-notification-token with a token; the rest are ours.

export const notificationTokenKinds = ['fcm', 'webpush'] as const;
export type NotificationTokenKind = (typeof notificationTokenKinds)[number];

/** A random id the device keeps (localStorage): one registration per user and device. */
export const deviceIdSchema = z
  .string()
  .min(8)
  .max(100)
  .regex(/^[\w-]+$/, 'deviceId may hold letters, digits, _ and - only');

const base64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[\w-]+=*$/, 'must be base64url');

function isHttpsUrl(text: string): boolean {
  try {
    return new URL(text).protocol === 'https:';
  } catch {
    return false;
  }
}

/** A PushSubscription's keys (`subscription.toJSON().keys`). */
export const webPushKeysSchema = z.object({ p256dh: base64url(200), auth: base64url(100) });

/**
 * spec §3 notification token: an FCM registration token (`kind` fcm, the spec's default), or
 * a Web Push subscription — `token` is then its endpoint and `keys` its keys.
 */
export const addNotificationTokenInputSchema = z
  .object({
    action: z.literal('add-notification-token'),
    token: z.string().trim().min(1).max(2048),
    deviceId: deviceIdSchema,
    kind: z.enum(notificationTokenKinds).default('fcm'),
    keys: webPushKeysSchema.optional(),
  })
  .superRefine((input, ctx) => {
    if (input.kind !== 'webpush') return;
    if (!input.keys) {
      ctx.addIssue({
        code: 'custom',
        path: ['keys'],
        message: notificationMessages.webPushKeysRequired,
      });
    }
    if (!isHttpsUrl(input.token)) {
      ctx.addIssue({
        code: 'custom',
        path: ['token'],
        message: notificationMessages.webPushEndpoint,
      });
    }
  });
export type AddNotificationTokenInput = z.input<typeof addNotificationTokenInputSchema>;

export const removeNotificationTokenInputSchema = z.object({
  action: z.literal('remove-notification-token'),
  deviceId: deviceIdSchema,
});
export type RemoveNotificationTokenInput = z.infer<typeof removeNotificationTokenInputSchema>;

/** With `deviceId`, the answer also says whether this device receives the caller's notices. */
export const getNotificationConfigInputSchema = z.object({
  action: z.literal('get-notification-config'),
  deviceId: deviceIdSchema.optional(),
});
export type GetNotificationConfigInput = z.infer<typeof getNotificationConfigInputSchema>;

/** Staff holding manage-org-branding in `orgId` send a test notice to their own devices. */
export const sendTestNotificationInputSchema = z.object({
  action: z.literal('send-test-notification'),
  orgId: z.uuid(),
});
export type SendTestNotificationInput = z.infer<typeof sendTestNotificationInputSchema>;

export const notificationsRequestSchema = z.discriminatedUnion('action', [
  addNotificationTokenInputSchema,
  removeNotificationTokenInputSchema,
  getNotificationConfigInputSchema,
  sendTestNotificationInputSchema,
]);
export type NotificationsRequest = z.infer<typeof notificationsRequestSchema>;

// Answers.

/** add-notification-token and remove-notification-token. */
export const notificationOkSchema = z.object({ success: z.literal(true) });

/** The public part of a Firebase web app's configuration (what `initializeApp` takes). */
export const firebaseWebConfigSchema = z.object({
  apiKey: z.string().min(1),
  authDomain: z.string().optional(),
  projectId: z.string().min(1),
  storageBucket: z.string().optional(),
  messagingSenderId: z.string().min(1),
  appId: z.string().min(1),
  measurementId: z.string().optional(),
});
export type FirebaseWebConfig = z.infer<typeof firebaseWebConfigSchema>;

/**
 * get-notification-config: how this server's devices subscribe. `fcm`: Firebase's `getToken`
 * with this web config (and the project's public key, when it has its own); `webpush`:
 * `pushManager.subscribe` with this VAPID public key; `none`: notices are only recorded.
 */
export const notificationConfigSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('fcm'),
    firebaseConfig: firebaseWebConfigSchema,
    vapidKey: z.string().nullable(),
    deviceRegistered: z.boolean(),
  }),
  z.object({
    kind: z.literal('webpush'),
    vapidPublicKey: z.string(),
    deviceRegistered: z.boolean(),
  }),
  z.object({ kind: z.literal('none'), deviceRegistered: z.boolean() }),
]);
export type NotificationConfig = z.infer<typeof notificationConfigSchema>;

export const noticeStatuses = ['recorded', 'sent', 'partial', 'failed', 'no-devices'] as const;
export type NoticeStatus = (typeof noticeStatuses)[number];

/** What became of a notice once the Notifier sent it (recorded in notification_outbox). */
export const noticeOutcomeSchema = z.object({
  status: z.enum(noticeStatuses),
  /** Devices the notice was meant for. */
  deviceCount: z.number().int().min(0),
  /** Devices the push service accepted it for. */
  deliveredCount: z.number().int().min(0),
  /** Registrations the push service said are gone, now forgotten. */
  removedCount: z.number().int().min(0),
});
export type NoticeOutcome = z.infer<typeof noticeOutcomeSchema>;

/**
 * send-test-notification: the notice is sent by a background job, not in the request.
 * `queued`: on its way to `deviceCount` devices of the caller; `no-devices`: none to send to.
 * `recordedOnly`: this server only records notices (development), nothing will pop up.
 */
export const testNoticeAnswerSchema = z.object({
  status: z.enum(['queued', 'no-devices']),
  deviceCount: z.number().int().min(0),
  recordedOnly: z.boolean(),
});
export type TestNoticeAnswer = z.infer<typeof testNoticeAnswerSchema>;
