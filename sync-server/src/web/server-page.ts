import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { escapeHtml } from './escape-html.ts';

/**
 * A small page the server renders itself, outside the app (the log-out page, the development
 * pages): one inline stylesheet, no script. Its policy allows that stylesheet (by hash) and a
 * form post back to us, nothing else.
 */
export function sendServerPage(
  reply: FastifyReply,
  page: { title: string; style: string; body: string },
): FastifyReply {
  const styleHash = createHash('sha256').update(page.style).digest('base64');
  const csp = [
    "default-src 'none'",
    `style-src 'sha256-${styleHash}'`,
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  return reply
    .type('text/html; charset=utf-8')
    .header('content-security-policy', csp)
    .header('cache-control', 'no-store').send(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
<style>${page.style}</style>
</head>
<body>
${page.body}
</body>
</html>`);
}
