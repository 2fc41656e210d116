import { useState } from 'react';
import { notificationMessages as m } from '@platform/schema/notifications/notifications.messages';
import type { TestNoticeAnswer } from '@platform/schema/notifications/notifications.zod';
import { useToast, type ToastApi } from '../../../components/toast/toast-context.ts';
import { sendTestNotification } from '../api/send-test-notification.ts';

/** The server queues the notice (a background job sends it); this says where it is going. */
function announce(toast: ToastApi, answer: TestNoticeAnswer): void {
  if (answer.status === 'no-devices') toast.show(m.testNoDevices, 'info');
  else if (answer.recordedOnly) toast.show(m.testRecorded, 'info');
  else toast.success(m.testSent);
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
