import { escapeHtml } from '../web/escape-html.ts';

const STYLE = `body { font-family: system-ui, sans-serif; max-width: 28rem; margin: 4rem auto; padding: 0 1rem; color: #1f2937; }
h1 { font-size: 1.4rem; }
button { font: inherit; padding: .6rem 1.2rem; border: 0; border-radius: .4rem; background: #0f766e; color: #fff; cursor: pointer; }
a { color: #0f766e; margin-left: 1rem; }`;

/**
 * spec §2 /auth/logout as a page: it asks, and its button posts /auth/logout. Signing out on
 * GET let any site sign people out with a link or an image; a post from another site is
 * refused by the CSRF origin check. No script: nothing on it acts by itself.
 */
export function logoutPage(name: string) {
  return {
    title: 'Sign out',
    style: STYLE,
    body: `<h1>Sign out?</h1>
<p>You are signed in as ${escapeHtml(name)} on this device.</p>
<form method="post" action="/auth/logout">
  <button type="submit">Sign out</button>
  <a href="/dashboard">Stay signed in</a>
</form>`,
  };
}
