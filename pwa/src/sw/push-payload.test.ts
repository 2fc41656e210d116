import { describe, expect, it } from 'vitest';
import { notificationMessages } from '@platform/schema/notifications/notifications.messages';
import { DEFAULT_NOTIFICATION_ICON, noticeFromPushText, parsePushPayload } from './push-payload.ts';

const origin = 'https://app.example.test';
const notice = { title: 'Booked', body: 'Yoga at 18:00', url: '/dashboard/bookings' };

describe('push payloads', () => {
  it('reads our Web Push payload as it is', () => {
    expect(parsePushPayload(notice, origin)).toEqual(notice);
    expect(parsePushPayload({ ...notice, icon: '/org-assets/x/icon-192.png' }, origin)).toEqual({
      ...notice,
      icon: '/org-assets/x/icon-192.png',
    });
  });

  it('reads an FCM data message', () => {
    const fcm = { from: '1234', fcmMessageId: 'abc', priority: 'high', data: notice };
    expect(parsePushPayload(fcm, origin)).toEqual(notice);
  });

  it('reads an FCM notification message, taking its link when it is ours', () => {
    const fromConsole = {
      notification: { title: 'Hello', body: 'From the console' },
      fcmOptions: { link: `${origin}/dashboard?from=fcm` },
    };
    expect(parsePushPayload(fromConsole, origin)).toEqual({
      title: 'Hello',
      body: 'From the console',
      url: '/dashboard?from=fcm',
    });
    const elsewhere = {
      notification: { title: 'Hello' },
      fcmOptions: { link: 'https://evil.test/' },
    };
    expect(parsePushPayload(elsewhere, origin)).toEqual({ title: 'Hello', body: '', url: '/' });
  });

  it('never keeps a link or icon that leaves the site', () => {
    expect(parsePushPayload({ ...notice, url: '//evil.test/x' }, origin)?.url).toBe('/');
    expect(parsePushPayload({ ...notice, icon: 'https://evil.test/i.png' }, origin)).toEqual(
      notice,
    );
  });

  it('shows something for a push it cannot read (browsers require a notification per push)', () => {
    const plain = {
      title: notificationMessages.fallbackTitle,
      body: '',
      url: '/',
      icon: DEFAULT_NOTIFICATION_ICON,
    };
    expect(noticeFromPushText(null, origin)).toEqual(plain);
    expect(noticeFromPushText('not json', origin)).toEqual(plain);
    expect(noticeFromPushText(JSON.stringify({ title: '' }), origin)).toEqual(plain);
    expect(noticeFromPushText(JSON.stringify(notice), origin)).toEqual({
      ...notice,
      icon: DEFAULT_NOTIFICATION_ICON,
    });
  });
});
