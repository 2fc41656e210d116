import type {
  NoticeOutcome,
  NotificationConfig,
} from '@platform/schema/notifications/notifications.zod';

/** A notice for every live device of these people. `url` is a path on our site (opened on click). */
export type Notice = {
  orgId: string | null;
  userIds: readonly string[];
  title: string;
  body: string;
  url: string;
};

/** What a device needs to subscribe to this notifier's push service. */
export type ClientPushConfig =
  | Omit<Extract<NotificationConfig, { kind: 'fcm' }>, 'deviceRegistered'>
  | Omit<Extract<NotificationConfig, { kind: 'webpush' }>, 'deviceRegistered'>
  | Omit<Extract<NotificationConfig, { kind: 'none' }>, 'deviceRegistered'>;

/**
 * The Notifier port (DESIGN.md): every push notification leaves through it. Each send is
 * recorded in notification_outbox (one row per recipient, with adapter, device count and
 * status); a device that fails does not make `send` throw — the outcome says so.
 */
export interface Notifier {
  readonly kind: 'outbox' | 'firebase' | 'web-push';
  readonly clientConfig: ClientPushConfig;
  send(notice: Notice): Promise<NoticeOutcome>;
  close?(): Promise<void>;
}
