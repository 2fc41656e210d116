import type { MailboxEntry } from '@platform/schema/dev-tools/mailbox.zod';
import { escapeHtml } from '../web/escape-html.ts';

const URL_PATTERN = /https?:\/\/[^\s<>"']+/g;

/** Escapes the text and turns http(s) links into anchors; nothing else becomes markup. */
export function linkify(text: string): string {
  let html = '';
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = match[0];
    html += escapeHtml(text.slice(last, match.index));
    html += `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`;
    last = match.index + url.length;
  }
  return html + escapeHtml(text.slice(last));
}

function renderEntry(entry: MailboxEntry): string {
  return `<article>
  <h2>${escapeHtml(entry.subject)}</h2>
  <p class="meta">To ${escapeHtml(entry.to)} · <time datetime="${escapeHtml(entry.createdAt)}">${escapeHtml(entry.createdAt)}</time></p>
  <pre>${linkify(entry.text)}</pre>
</article>`;
}

const STYLE = `body { font-family: system-ui, sans-serif; max-width: 48rem; margin: 2rem auto; padding: 0 1rem; color: #1f2937; }
article { border: 1px solid #d1d5db; border-radius: .5rem; padding: 1rem; margin-bottom: 1rem; }
h2 { font-size: 1.1rem; margin: 0 0 .25rem; }
.meta { color: #4b5563; margin: 0 0 .5rem; font-size: .9rem; }
pre { white-space: pre-wrap; word-break: break-word; font: inherit; margin: 0; }`;

/** The development mailbox: what the outbox mailer recorded instead of sending. */
export function mailboxPage(entries: MailboxEntry[]) {
  const list = entries.length > 0 ? entries.map(renderEntry).join('\n') : '<p>No emails yet.</p>';
  return {
    title: 'Development mailbox',
    style: STYLE,
    body: `<h1>Development mailbox</h1>
<p>The newest 50 emails this server recorded instead of sending (no SMTP_URL configured).</p>
${list}`,
  };
}
