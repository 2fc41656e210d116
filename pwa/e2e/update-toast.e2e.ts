import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { pwaDist } from '../../scripts/lib/pwa-build.ts';
import { launchPersistent, startE2eServer, type E2eServer } from '../../scripts/e2e/harness.ts';

/**
 * Issue 5: when a new version is deployed, an open app offers 'Update available — reload'
 * and takes it on that click. The server serves a copy of the build; "deploying" changes the
 * service worker script in that copy, as every real build does.
 */
describe('a new deployment', () => {
  let server: E2eServer;
  let profile: Awaited<ReturnType<typeof launchPersistent>>;
  let page: Page;
  const dist = mkdtempSync(path.join(tmpdir(), 'pwa-deploy-'));
  beforeAll(async () => {
    cpSync(pwaDist, dist, { recursive: true });
    [server, profile] = await Promise.all([
      startE2eServer({ PWA_DIST: dist }),
      launchPersistent(),
    ]);
    page = profile.context.pages()[0] ?? (await profile.context.newPage());
  });
  afterAll(async () => {
    await profile?.close();
    await server?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const activeScriptMarker = () =>
    page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      const text = await (await fetch(registration?.active?.scriptURL ?? '/sw.js')).text();
      return text.includes('deployment 2');
    });

  it("offers 'Update available — reload' and moves the app onto the new version", async () => {
    await page.goto(`${server.url}/auth/login`);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, {
      timeout: 15_000,
    });
    const offer = page.getByRole('button', { name: 'Update available — reload' });
    expect(await offer.count()).toBe(0);

    appendFileSync(path.join(dist, 'sw.js'), '\n// deployment 2\n');
    // A navigation makes the browser look for a new service worker.
    await page.reload();
    await page.getByText('A new version is available.').waitFor({ timeout: 20_000 });
    // Listening before the click: the reload it starts can finish before a later listener.
    const reloaded = page.waitForEvent('load', { timeout: 30_000 });
    await offer.click();
    await reloaded;
    await page.getByRole('heading', { name: 'Log in to your account' }).waitFor();
    await expect
      .poll(() =>
        page.evaluate(async () => {
          const registration = await navigator.serviceWorker.getRegistration();
          return registration?.waiting === null && navigator.serviceWorker.controller !== null;
        }),
      )
      .toBe(true);
    expect(await activeScriptMarker()).toBe(true);
    expect(await offer.count()).toBe(0);
  });
});
