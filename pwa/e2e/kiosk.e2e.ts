import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { request, type BrowserContext, type Page } from 'playwright-core';
import { kioskDevices, timeEntries } from '@platform/schema/db';
import { kioskMessages } from '@platform/schema/kiosk/kiosk.messages';
import { savedOfflineMessage } from '@platform/schema/time-tracking/time-tracking.messages';
import {
  DEMO_PASSWORD,
  demoLogins,
  launchPersistent,
  logIn,
  startE2eServer,
  type E2eServer,
} from '../../scripts/e2e/harness.ts';
import { openWifi } from '../../scripts/e2e/wifi.ts';

const SAM_PIN = '4821';

/**
 * Issue 6 kiosk mode: the front-desk time clock keeps working with the network down. One
 * persistent profile, as a real tablet: the service worker serves the app shell offline.
 */
describe('kiosk mode', () => {
  let server: E2eServer;
  let wifi: Awaited<ReturnType<typeof openWifi>>;
  let profile: Awaited<ReturnType<typeof launchPersistent>>;
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    [server, profile] = await Promise.all([startE2eServer(), launchPersistent()]);
    wifi = await openWifi(server.url);
    context = profile.context;
    page = context.pages()[0] ?? (await context.newPage());
  });
  afterAll(async () => {
    await profile?.close();
    await wifi?.close();
    await server?.close();
  });

  /** The network goes down, and the device notices (navigator.onLine, `offline` events). */
  async function goOffline(): Promise<void> {
    wifi.unplug();
    await context.setOffline(true);
  }

  async function goOnline(): Promise<void> {
    wifi.plugIn();
    await context.setOffline(false);
  }

  /** Sam sets a kiosk PIN in their settings (the section's own call, from another device). */
  async function setPinOfSam(): Promise<void> {
    const phone = await request.newContext({
      baseURL: server.url,
      extraHTTPHeaders: { origin: server.url },
    });
    const login = await phone.post('/auth/login', {
      data: { identifier: demoLogins.staff.email, password: DEMO_PASSWORD },
    });
    expect(login.status()).toBe(200);
    expect((await phone.put('/api/kiosk/pin', { data: { pin: SAM_PIN } })).status()).toBe(200);
    await phone.dispose();
  }

  /** STACK-NOTES: only a controlled page is served from the cache; reload once after install. */
  async function waitForServiceWorker(): Promise<void> {
    const controlled = () =>
      page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, {
        timeout: 10_000,
      });
    try {
      await controlled();
    } catch {
      await page.reload();
      await controlled();
    }
  }

  const toast = (text: string) =>
    page.getByRole('status', { name: 'Notifications' }).getByText(text);
  const pending = (text: string) => page.getByRole('status').filter({ hasText: text });

  async function enterPinOfSam(): Promise<void> {
    await page.getByRole('button', { name: 'Sam Staff' }).click();
    await page.getByRole('heading', { name: 'Hello, Sam Staff' }).waitFor();
    await page.getByLabel('PIN', { exact: true }).fill(SAM_PIN);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Sam Staff', exact: true }).waitFor();
  }

  it('clocks in offline with a PIN, keeps the move through a reload, and sends it with its own time', async () => {
    await setPinOfSam();
    await logIn(page, wifi.url, demoLogins.owner.email);
    const card = page.getByRole('region', { name: 'Account' });
    await card.getByRole('link', { name: 'Enter kiosk mode' }).click();
    await page.getByRole('button', { name: 'Start kiosk mode' }).click();
    await page.getByRole('heading', { name: 'Tap your name' }).waitFor();
    await waitForServiceWorker();
    await pending('All actions sent').waitFor();

    await goOffline();
    await enterPinOfSam();
    await page.getByText('Not clocked in').waitFor();
    const clickedAt = Date.now();
    await page.getByRole('button', { name: 'Clock In', exact: true }).click();
    // Offline, the move is kept on the device and the kiosk says so (issue 13).
    await toast(savedOfflineMessage).waitFor();
    const recordedBy = Date.now();
    await page.getByRole('heading', { name: 'Tap your name' }).waitFor();
    await pending('1 action waiting to be sent').waitFor();

    // Still offline: the shell comes from the service worker, the move from the device.
    await page.reload();
    await page.getByRole('heading', { name: 'Tap your name' }).waitFor();
    await pending('1 action waiting to be sent').waitFor();
    await enterPinOfSam();
    await page.getByText(/^Clocked in since \d{1,2}:\d\d\s[AP]M$/).waitFor();
    await page.getByRole('button', { name: 'Start Break', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    expect(
      await server.db
        .select()
        .from(timeEntries)
        .where(eq(timeEntries.userId, server.seed.userIds.staff)),
    ).toEqual([]);

    // Long enough that the time it syncs at cannot pass for the time it happened.
    await page.waitForTimeout(1500);
    const onlineAt = Date.now();
    await goOnline();
    await pending('All actions sent').waitFor({ timeout: 20_000 });
    const rowsOfSam = () =>
      server.db.select().from(timeEntries).where(eq(timeEntries.userId, server.seed.userIds.staff));
    await expect.poll(async () => (await rowsOfSam()).length, { timeout: 10_000 }).toBe(1);
    const [entry] = await rowsOfSam();
    const startedAt = entry?.startTime.getTime() ?? 0;
    expect(startedAt).toBeGreaterThanOrEqual(clickedAt - 1000);
    expect(startedAt).toBeLessThanOrEqual(recordedBy);
    expect(startedAt).toBeLessThan(onlineAt);
    expect(entry).toMatchObject({ orgId: server.seed.zipperOrgId, endTime: null, deleted: false });
  });

  it('asks for the password of the staff member who started it before it leaves kiosk mode', async () => {
    await page.getByRole('button', { name: 'Leave kiosk mode' }).click();
    await page.getByRole('heading', { name: 'Leave kiosk mode' }).waitFor();
    await page.getByText('Enter the password of Olivia Owner, who started this kiosk.').waitFor();
    const password = page.getByLabel('Password', { exact: true });
    await password.fill('not-the-password');
    await page.getByRole('button', { name: 'Leave kiosk mode' }).click();
    await page.getByText(kioskMessages.wrongPassword).waitFor();
    expect(page.url()).toBe(`${wifi.url}/auth/kiosk-mode`);

    await password.fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Leave kiosk mode' }).click();
    await page.waitForURL((url) => url.pathname === '/auth/login');
    await page.getByRole('heading', { name: 'Log in to your account' }).waitFor();
    const kiosks = await server.db.select().from(kioskDevices);
    expect(kiosks).toHaveLength(1);
    expect(kiosks[0]?.revokedAt).toBeInstanceOf(Date);
  });
});
