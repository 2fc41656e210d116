import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { insertTestOrg } from '../testing/auth-fixtures.ts';
import { testConfig } from '../testing/test-app.ts';
import { createTestDatabase, testDatabaseKinds } from '../testing/test-database.ts';

const inlineScript = `
      window.__earlyMe = fetch('/api/me');
    `;
const shellHtml = `<!doctype html><html><head>
<meta name="theme-color" content="#0f766e" />
<link rel="manifest" href="/manifest.webmanifest" />
<title>Coaching Platform</title>
<script>${inlineScript}</script>
<script type="module" crossorigin src="/assets/index-abc.js"></script>
</head><body><div id="root"></div></body></html>`;
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** The policy as a map of directive → its sources. */
function directivesOf(header: string | string[] | number | undefined): Map<string, string[]> {
  const policy = String(header ?? '');
  return new Map(
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name = '', ...sources]) => [name, sources]),
  );
}

/** Every inline script of a page must be allowed by its policy's hashes. */
function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) =>
    sha256(m[1] ?? ''),
  );
}

// Headers do not depend on the database, so one kind (the faster to build) is enough.
describe('security headers', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let app: FastifyInstance;
  let orgId: string;
  const dist = mkdtempSync(path.join(tmpdir(), 'pwa-dist-'));
  const get = (url: string) => app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });

  beforeAll(async () => {
    writeFileSync(path.join(dist, 'index.html'), shellHtml);
    writeFileSync(path.join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    database = await createTestDatabase(testDatabaseKinds[0]!);
    app = await buildApp({ config: testConfig({ PWA_DIST: dist }), database });
    orgId = (await insertTestOrg(database.db)).id;
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('on every answer: no sniffing, no framing, a referrer policy that keeps paths on our site', async () => {
    for (const url of ['/healthz', '/api/me', '/dashboard', '/sw.js']) {
      const res = await get(url);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(directivesOf(res.headers['content-security-policy']).get('frame-ancestors')).toEqual([
        "'none'",
      ]);
    }
  });

  it('gives the app shell a policy that allows its own scripts and its inline script by hash, nothing outside', async () => {
    const tenantPage = `/dashboard-customer/${orgId}/shop`;
    for (const url of ['/dashboard', '/auth/login', '/auth/signup', '/index.html', tenantPage]) {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      const csp = directivesOf(res.headers['content-security-policy']);
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('script-src')).toEqual(["'self'", sha256(inlineScript)]);
      for (const hash of inlineScriptHashes(res.body))
        expect(csp.get('script-src')).toContain(hash);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'self'"]);
      expect(csp.get('form-action')).toEqual(["'self'"]);
      expect(csp.get('frame-src')).toEqual(["'none'"]);
      // No inline script or style attributes; inline <style> elements only (Radix's scroll lock).
      expect(csp.get('style-src')).toEqual(["'self'"]);
      expect(csp.get('style-src-elem')).toEqual(["'self'", "'unsafe-inline'"]);
      expect(csp.get('script-src-attr')).toEqual(["'none'"]);
      expect(res.headers['content-security-policy']).not.toContain('google');
      expect(res.headers['content-security-policy']).not.toContain('stripe');
      // Plain http (development): upgrading our own requests to https would break every one.
      expect(csp.has('upgrade-insecure-requests')).toBe(false);
    }
  });

  it("allows Google's sign-in origins on the page that loads GIS, and only there", async () => {
    const res = await get('/auth/login-with-google?redirectTo=%2Fdashboard');
    const csp = directivesOf(res.headers['content-security-policy']);
    expect(csp.get('script-src')).toEqual([
      "'self'",
      sha256(inlineScript),
      'https://accounts.google.com/gsi/client',
    ]);
    expect(csp.get('frame-src')).toEqual(['https://accounts.google.com/gsi/']);
    expect(csp.get('connect-src')).toEqual(["'self'", 'https://accounts.google.com/gsi/']);
    expect(csp.get('style-src')).toContain('https://accounts.google.com/gsi/style');
    expect(csp.get('style-src-elem')).toContain('https://accounts.google.com/gsi/style');
    // GIS's account chooser is a popup that reports back to this page.
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    expect((await get('/auth/login')).headers['cross-origin-opener-policy']).toBe('same-origin');
  });

  it('follows a new build of the shell', async () => {
    const changed = 'window.__earlyMe = null;';
    writeFileSync(path.join(dist, 'index.html'), shellHtml.replace(inlineScript, changed));
    try {
      const csp = directivesOf((await get('/dashboard')).headers['content-security-policy']);
      expect(csp.get('script-src')).toEqual(["'self'", sha256(changed)]);
    } finally {
      writeFileSync(path.join(dist, 'index.html'), shellHtml);
    }
  });

  it('upgrades insecure requests and asks for HTTPS only behind https', async () => {
    const secure = await buildApp({
      config: testConfig({ PWA_DIST: dist, PUBLIC_URL: 'https://app.example' }),
      database,
    });
    try {
      const res = await secure.inject({ method: 'GET', url: '/dashboard' });
      expect(
        directivesOf(res.headers['content-security-policy']).has('upgrade-insecure-requests'),
      ).toBe(true);
      expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
      expect((await get('/dashboard')).headers['strict-transport-security']).toBeUndefined();
    } finally {
      await secure.close();
    }
  });

  // Decision 0063: Stripe's card entry is a page of its own, framed by the card forms.
  it("gives the card-entry page Stripe's origins and lets only our pages frame it", async () => {
    const res = await get('/payments/card-entry');
    expect(res.statusCode).toBe(200);
    const csp = directivesOf(res.headers['content-security-policy']);
    expect(csp.get('script-src')).toEqual([
      "'self'",
      sha256(inlineScript),
      'https://js.stripe.com',
    ]);
    expect(csp.get('frame-src')).toEqual(['https://js.stripe.com', 'https://hooks.stripe.com']);
    expect(csp.get('connect-src')).toEqual(["'self'", 'https://api.stripe.com']);
    expect(csp.get('frame-ancestors')).toEqual(["'self'"]);
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['content-security-policy']).not.toContain('google');
    // Every other page: framed by nobody; and without Stripe, frames nothing either.
    const other = directivesOf((await get('/dashboard')).headers['content-security-policy']);
    expect(other.get('frame-ancestors')).toEqual(["'none'"]);
    expect(other.get('frame-src')).toEqual(["'none'"]);
  });

  it('reads a request line starting with // as the path it is, not as another host’s', async () => {
    // `//x/payments/card-entry` is an app page of its own (the SPA's Page not found), not the
    // card-entry page; the same for Google's sign-in page (adversarial review, 2026-11-24).
    for (const url of ['//x/payments/card-entry', '//x/auth/login-with-google']) {
      const res = await get(url);
      const csp = directivesOf(res.headers['content-security-policy']);
      expect(csp.get('script-src')).toEqual(["'self'", sha256(inlineScript)]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('with Stripe, lets every page frame our own (the card-entry page), still framed by nobody', async () => {
    const stripe = await buildApp({
      config: testConfig({
        PWA_DIST: dist,
        STRIPE_SECRET_KEY: 'sk_test_headers',
        STRIPE_WEBHOOK_SECRET: 'whsec_headers',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_headers',
        STRIPE_API_BASE: 'http://127.0.0.1:9',
      }),
      database,
    });
    try {
      for (const url of ['/dashboard', `/dashboard-customer/${orgId}/shop`]) {
        const res = await stripe.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
        const csp = directivesOf(res.headers['content-security-policy']);
        expect(csp.get('frame-src')).toEqual(["'self'"]);
        expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
        expect(csp.get('script-src')).toEqual(["'self'", sha256(inlineScript)]);
        expect(res.headers['x-frame-options']).toBe('DENY');
      }
      const entry = await stripe.inject({ method: 'GET', url: '/payments/card-entry' });
      expect(directivesOf(entry.headers['content-security-policy']).get('frame-ancestors')).toEqual(
        ["'self'"],
      );
    } finally {
      await stripe.close();
    }
  });
});
