import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { request, type BrowserContext, type Page } from 'playwright-core';
import { kioskDevices, timeEntries } from '@platform/schema/db';
import { INSTALL_PROMPT_WAIT_MS } from '@platform/schema/app/constants';
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
import { axeViolations } from '../../scripts/e2e/axe.ts';

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

  /** Sam's name tile, which says whether Sam is in, on break or out (issue 14). */
  const tileOfSam = (status: 'In' | 'On break' | 'Out') =>
    page.getByRole('list', { name: 'Staff' }).getByRole('button', { name: `Sam Staff, ${status}` });
  const time = String.raw`\d{1,2}:\d\d\s[AP]M`;
  /** The full-screen answer to a move, in the organisation's clock (New York: the US way). */
  const confirmation = (move: string) =>
    page.getByRole('status').filter({ hasText: new RegExp(`^Sam Staff — ${move} ${time}`) });

  /** On the wall tablet's keypad, or with a keyboard: both type the PIN. */
  async function enterPinOfSam(using: 'keypad' | 'keyboard'): Promise<void> {
    await page.getByRole('button', { name: /^Sam Staff/ }).click();
    await page.getByRole('heading', { name: 'Hello, Sam Staff' }).waitFor();
    const field = page.getByLabel('PIN', { exact: true });
    expect(await field.getAttribute('inputmode')).toBe('numeric');
    if (using === 'keyboard') await field.fill(SAM_PIN);
    else {
      const keypad = page.getByRole('group', { name: 'Keypad' });
      await keypad.getByRole('button', { name: '9', exact: true }).click();
      await keypad.getByRole('button', { name: 'Delete last digit' }).click();
      for (const digit of SAM_PIN)
        await keypad.getByRole('button', { name: digit, exact: true }).click();
      expect(await field.inputValue()).toBe(SAM_PIN);
    }
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

    // A clock on the wall, in the organisation's way of writing time.
    await page
      .locator('.kiosk-clock')
      .getByText(new RegExp(`^${time}$`))
      .waitFor();
    await tileOfSam('Out').waitFor();

    await goOffline();
    await enterPinOfSam('keypad');
    await page.getByText('Not clocked in').waitFor();
    const clickedAt = Date.now();
    await page.getByRole('button', { name: 'Clock In', exact: true }).click();
    // The answer fills the screen, then clears itself for the next person (issue 14).
    await confirmation('clocked in').waitFor();
    // Offline, the move is kept on the device and the kiosk says so (issue 13)…
    await toast(savedOfflineMessage).waitFor();
    const recordedBy = Date.now();
    // …in a toast that never covers 'Leave kiosk mode'.
    const toastBox = await toast(savedOfflineMessage).boundingBox();
    const leaveBox = await page.getByRole('button', { name: 'Leave kiosk mode' }).boundingBox();
    expect(toastBox && leaveBox).toBeTruthy();
    const apart =
      toastBox!.y + toastBox!.height <= leaveBox!.y ||
      leaveBox!.y + leaveBox!.height <= toastBox!.y ||
      toastBox!.x + toastBox!.width <= leaveBox!.x ||
      leaveBox!.x + leaveBox!.width <= toastBox!.x;
    expect(apart).toBe(true);
    await confirmation('clocked in').waitFor({ state: 'detached', timeout: 8_000 });
    await page.getByRole('heading', { name: 'Tap your name' }).waitFor();
    await tileOfSam('In').waitFor();
    await pending('1 action waiting to be sent').waitFor();

    // Still offline: the shell comes from the service worker, the move from the device.
    await page.reload();
    await page.getByRole('heading', { name: 'Tap your name' }).waitFor();
    await pending('1 action waiting to be sent').waitFor();
    await tileOfSam('In').waitFor();
    await enterPinOfSam('keyboard');
    await page.getByText(/^Clocked in since \d{1,2}:\d\d\s[AP]M$/).waitFor();
    await page.getByRole('button', { name: 'Start Break', exact: true }).click();
    // A tap clears the answer at once.
    await confirmation('started a break').click();
    await confirmation('started a break').waitFor({ state: 'detached', timeout: 1_000 });
    await tileOfSam('On break').waitFor();
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

  it("offers no 'Install app' over the kiosk, even when the browser would allow it, and passes axe", async () => {
    // Record when Chromium offers installation, to know the offer had its chance to appear.
    await context.addInitScript(() => {
      window.addEventListener('beforeinstallprompt', () =>
        document.documentElement.setAttribute('data-e2e-install-offered', ''),
      );
    });
    await page.reload();
    await page.getByRole('heading', { name: 'Tap your name' }).waitFor();
    await page.waitForSelector('html[data-e2e-install-offered]', {
      state: 'attached',
      timeout: 20_000,
    });
    await page.waitForTimeout(INSTALL_PROMPT_WAIT_MS + 700);
    expect(await page.getByRole('region', { name: 'Install app' }).count()).toBe(0);
    // The wall tablet's screen, its tiles with their status, as axe-core reads it.
    await tileOfSam('On break').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    // Nothing lies over the way out (a trial click fails when something would take the click).
    await page
      .getByRole('button', { name: 'Leave kiosk mode' })
      .click({ trial: true, timeout: 2_000 });
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
