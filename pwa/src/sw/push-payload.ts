import { notificationMessages } from '@platform/schema/notifications/notifications.messages';
import { isSameOriginPath } from '@platform/schema/notifications/notification-url.rules';
import {
  pushPayloadSchema,
  type PushPayload,
} from '@platform/schema/notifications/push-payload.zod';

export const DEFAULT_NOTIFICATION_ICON = '/icons/icon-192.png';

export type ShownNotice = { title: string; body: string; url: string; icon: string };

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A link as a path on our site: paths as they are, absolute URLs of our origin cut down to one. */
function sitePath(url: unknown, origin: string): string | undefined {
  if (typeof url !== 'string') return undefined;
  if (isSameOriginPath(url)) return url;
  try {
    const parsed = new URL(url);
    return parsed.origin === origin
      ? `${parsed.pathname}${parsed.search}${parsed.hash}`
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The payload a push carries, in the shapes we send: our Web Push JSON as it is; an FCM data
 * message `{data: {title, body, url}}`; or an FCM notification message (sent from Firebase's
 * console) `{notification: {title, body, icon}, data: {url}, fcmOptions: {link}}`.
 */
export function parsePushPayload(json: unknown, origin: string): PushPayload | null {
  if (!isObject(json)) return null;
  const data = isObject(json.data) ? json.data : {};
  const notification = isObject(json.notification) ? json.notification : {};
  const fcmOptions = isObject(json.fcmOptions) ? json.fcmOptions : {};
  const candidates = [
    json,
    { ...data, ...notification, url: data.url ?? fcmOptions.link ?? notification.click_action },
  ];
  for (const candidate of candidates) {
    const url = sitePath(candidate.url, origin);
    const icon = sitePath(candidate.icon, origin);
    const parsed = pushPayloadSchema.safeParse({
      title: candidate.title,
      body: candidate.body ?? '',
      url: url ?? '/',
      ...(icon ? { icon } : {}),
    });
    if (parsed.success) return parsed.data;
  }
  return null;
}

/** What to show for a push's text: its notice, or a plain one (browsers require one per push). */
export function noticeFromPushText(text: string | null, origin: string): ShownNotice {
  let json: unknown;
  try {
    json = text ? (JSON.parse(text) as unknown) : null;
  } catch {
    json = null;
  }
  const payload = parsePushPayload(json, origin);
  return {
    title: payload?.title ?? notificationMessages.fallbackTitle,
    body: payload?.body ?? '',
    url: payload?.url ?? '/',
    icon: payload?.icon ?? DEFAULT_NOTIFICATION_ICON,
  };
}
