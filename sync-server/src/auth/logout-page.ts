import { createHash } from 'node:crypto';
import { escapeHtml } from '../web/escape-html.ts';

const STYLE = `body { font-family: system-ui, sans-serif; max-width: 28rem; margin: 4rem auto; padding: 0 1rem; color: #1f2937; }
h1 { font-size: 1.4rem; }
button { font: inherit; padding: .6rem 1.2rem; border: 0; border-radius: .4rem; background: #0f766e; color: #fff; cursor: pointer; }
a { color: #0f766e; margin-left: 1rem; }`;

/** The page allows nothing but its own stylesheet and a post back to us. */
export const LOGOUT_PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/**
 * spec §2 /auth/logout as a page: it asks, and its button posts /auth/logout. Signing out on
 * GET let any site sign people out with a link or an image; a post from another site is
 * refused by the CSRF origin check. No script: nothing on it acts by itself.
 */
export function renderLogoutPage(name: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign out</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Sign out?</h1>
<p>You are signed in as ${escapeHtml(name)} on this device.</p>
<form method="post" action="/auth/logout">
  <button type="submit">Sign out</button>
  <a href="/dashboard">Stay signed in</a>
</form>
</body>
</html>`;
}
