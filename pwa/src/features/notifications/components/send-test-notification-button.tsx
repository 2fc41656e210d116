import { useState } from 'react';
import { notificationMessages as m } from '@platform/schema/notifications/notifications.messages';
import type { NoticeOutcome } from '@platform/schema/notifications/notifications.zod';
import { useToast, type ToastApi } from '../../../components/toast/toast-context.ts';
import { sendTestNotification } from '../api/send-test-notification.ts';

function announce(toast: ToastApi, outcome: NoticeOutcome): void {
  switch (outcome.status) {
    case 'sent':
    case 'partial':
      toast.success(m.testSent);
      return;
    case 'recorded':
      toast.show(m.testRecorded, 'info');
      return;
    case 'no-devices':
      toast.show(m.testNoDevices, 'info');
      return;
    case 'failed':
      toast.error(m.testFailed);
  }
}

/** Staff with manage-org-branding: a test notice to their own devices in `orgId`. */
export function SendTestNotificationButton({ orgId }: { orgId: string }) {
  const toast = useToast();
  const [sending, setSending] = useState(false);
  const send = async () => {
    setSending(true);
    try {
      announce(toast, await sendTestNotification(orgId));
    } catch (error) {
      console.error('send-test-notification failed', error);
      toast.error(m.testFailed);
    } finally {
      setSending(false);
    }
  };
  return (
    <button
      type="button"
      className="button button-secondary"
      disabled={sending}
      onClick={() => void send()}
    >
      {sending ? m.sendingTest : m.sendTest}
    </button>
  );
}
