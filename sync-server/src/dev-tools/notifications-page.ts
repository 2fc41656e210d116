import type { SentNotice } from '@platform/schema/dev-tools/sent-notices.zod';
import { escapeHtml } from '../web/escape-html.ts';

const devices = (count: number) => (count === 1 ? '1 device' : `${count} devices`);

function renderNotice(notice: SentNotice): string {
  const link = notice.url
    ? ` · opens <a href="${escapeHtml(notice.url)}">${escapeHtml(notice.url)}</a>`
    : '';
  const error = notice.error ? `<p class="error">${escapeHtml(notice.error)}</p>` : '';
  return `<article>
  <h2>${escapeHtml(notice.title)}</h2>
  <p class="meta">To ${escapeHtml(notice.recipient ?? 'nobody')} · ${escapeHtml(notice.adapter)} · ${devices(notice.deviceCount)} · <strong>${escapeHtml(notice.status)}</strong> · <time datetime="${escapeHtml(notice.createdAt)}">${escapeHtml(notice.createdAt)}</time>${link}</p>
  <p>${escapeHtml(notice.body)}</p>
  ${error}
</article>`;
}

const STYLE = `body { font-family: system-ui, sans-serif; max-width: 48rem; margin: 2rem auto; padding: 0 1rem; color: #1f2937; }
article { border: 1px solid #d1d5db; border-radius: .5rem; padding: 1rem; margin-bottom: 1rem; }
h2 { font-size: 1.1rem; margin: 0 0 .25rem; }
.meta { color: #4b5563; margin: 0 0 .5rem; font-size: .9rem; }
.error { color: #b91c1c; font-size: .9rem; }
p { margin: 0 0 .25rem; }`;

/** The development notifications page: every notice the Notifier was asked to send. */
export function notificationsPage(notices: SentNotice[]) {
  const list =
    notices.length > 0 ? notices.map(renderNotice).join('\n') : '<p>No notifications yet.</p>';
  return {
    title: 'Development notifications',
    style: STYLE,
    body: `<h1>Development notifications</h1>
<p>The newest 50 notices this server recorded, one per recipient: with the outbox adapter they were only recorded; with Web Push or Firebase the status says what the push service answered.</p>
${list}`,
  };
}
