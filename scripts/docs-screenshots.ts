/**
 * Screenshots for docs/ (issue 14): what the product looks like to the owner, at the front desk
 * and to a parent, at 390 px and 1280 px. Not a test: run `npm run build && npx tsx
 * scripts/docs-screenshots.ts` after a change to these screens and commit docs/screenshots/.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { DEMO_PASSWORD, demoLogins, launchBrowser, logIn, startE2eServer } from './e2e/harness.ts';

const out = path.resolve(import.meta.dirname, '../docs/screenshots');
const sizes = [
  { name: '390', width: 390, height: 844 },
  { name: '1280', width: 1280, height: 860 },
] as const;

async function shoot(page: Page, name: string) {
  await page.waitForLoadState('load');
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForTimeout(800);
  await page.screenshot({ path: path.join(out, `${name}.png`), fullPage: false });
  console.log(`docs/screenshots/${name}.png`);
}

async function signedIn(browser: Browser, url: string, email: string, size: (typeof sizes)[number]) {
  const page = await (await browser.newContext({ viewport: size })).newPage();
  await logIn(page, url, email, DEMO_PASSWORD);
  return page;
}

const server = await startE2eServer();
const browser = await launchBrowser();
try {
  const orgId = server.seed.zipperOrgId;
  for (const size of sizes) {
    const owner = await signedIn(browser, server.url, demoLogins.owner.email, size);
    await owner.goto(`${server.url}/dashboard`);
    await owner.getByRole('heading', { name: /^Welcome/ }).waitFor();
    await shoot(owner, `owner-home-${size.name}`);
    await owner.goto(`${server.url}/dashboard/organization-management#team`);
    await owner.getByRole('heading', { name: 'Organization', level: 1 }).waitFor();
    const team = owner.getByRole('heading', { name: 'Team', level: 2 });
    if (await team.count()) await team.scrollIntoViewIfNeeded();
    await shoot(owner, `owner-team-${size.name}`);
    await owner.goto(`${server.url}/dashboard/time-tracking`);
    await owner.getByRole('heading', { name: 'On the clock now' }).waitFor();
    await owner.getByRole('table', { name: 'Hours per person and day' }).scrollIntoViewIfNeeded();
    await shoot(owner, `owner-time-tracking-${size.name}`);
    await owner.goto(`${server.url}/auth/kiosk-mode`);
    await owner.getByRole('button', { name: 'Start kiosk mode' }).click();
    await owner.getByRole('heading', { name: 'Tap your name' }).waitFor();
    await shoot(owner, `kiosk-${size.name}`);
    await owner.context().close();

    const parent = await signedIn(browser, server.url, demoLogins.parent.email, size);
    await parent.goto(`${server.url}/dashboard-customer/${orgId}`);
    await parent.getByRole('heading', { level: 1 }).first().waitFor();
    await shoot(parent, `parent-home-${size.name}`);
    await parent.context().close();
  }
} finally {
  await browser.close();
  await server.close();
}
