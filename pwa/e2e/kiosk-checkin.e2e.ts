import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { BrowserContext, Page } from 'playwright-core';
import { bookings } from '@platform/schema/db';
import { dayKeyOf, startOfDay } from '@platform/schema/time-tracking/org-calendar';
import { savedOfflineMessage } from '@platform/schema/time-tracking/time-tracking.messages';
import { insertBookedPlace } from '../../sync-server/src/testing/booking-fixtures.ts';
import { insertOccurrence } from '../../sync-server/src/testing/schedule-fixtures.ts';
import {
  demoLogins,
  launchPersistent,
  logIn,
  startE2eServer,
  type E2eServer,
} from '../../scripts/e2e/harness.ts';
import { axeViolations } from '../../scripts/e2e/axe.ts';
import { openWifi } from '../../scripts/e2e/wifi.ts';

const zone = 'America/New_York';

/**
 * Issue 16 at the front desk: the kiosk checks people in to the class on now — also with the
 * network down. A check-in made offline is kept on the device (through a reload) and synced
 * like a clock-in, with the time of the tap. One persistent profile, as a real tablet.
 */
describe('class check-in at the kiosk', () => {
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

  async function goOffline(): Promise<void> {
    wifi.unplug();
    await context.setOffline(true);
  }

  async function goOnline(): Promise<void> {
    wifi.plugIn();
    await context.setOffline(false);
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

  const pending = (text: string) => page.getByRole('status').filter({ hasText: text });
  const toast = (text: string) =>
    page.getByRole('status', { name: 'Notifications' }).getByText(text);
  const openCheckIn = async () => {
    await page.getByRole('button', { name: 'Class check-in' }).click();
    await page.getByRole('heading', { name: 'Class check-in' }).waitFor();
  };
  const classTile = (title: string) =>
    page.getByRole('list', { name: 'Today’s classes' }).getByRole('button', { name: title });
  const rowOfPat = () =>
    page
      .getByRole('list', { name: 'Booked for Lunch spin' })
      .getByRole('listitem')
      .filter({ hasText: 'Pat Parent' });
  const noSideways = async () =>
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    ).toBe(true);

  /** Today's class times, on Zipper's clock: started five minutes ago (never yesterday). */
  async function offerClassesToday() {
    const today = startOfDay(dayKeyOf(Date.now(), zone), zone);
    const startsAt = new Date(Math.max(today, Date.now() - 5 * 60_000));
    const orgId = server.seed.zipperOrgId;
    const { occurrence } = await insertOccurrence(server.db, orgId, {
      startsAt,
      title: 'Lunch spin',
    });
    await insertOccurrence(server.db, orgId, {
      startsAt: new Date(startsAt.getTime() + 60_000),
      title: 'Open gym',
    });
    return insertBookedPlace(server.db, {
      orgId,
      occurrenceId: occurrence.id,
      customerUserId: server.seed.userIds.parent,
      customerName: 'Pat Parent',
    });
  }

  it('checks a booked person in offline, keeps it through a reload, and sends it with its own time', async () => {
    await logIn(page, wifi.url, demoLogins.owner.email);
    await page
      .getByRole('region', { name: 'Account' })
      .getByRole('link', { name: 'Enter kiosk mode' })
      .click();
    await page.getByRole('button', { name: 'Start kiosk mode' }).click();
    await page.getByRole('heading', { name: 'Tap your name' }).waitFor();
    await waitForServiceWorker();
    await pending('All actions sent').waitFor();

    // The demo's timetable starts tomorrow.
    await openCheckIn();
    await page.getByText('No classes today').waitFor({ timeout: 30_000 });
    expect(await axeViolations(page)).toEqual([]);

    // Classes today, one with Pat booked: the kiosk replicates them when it next syncs.
    const booking = await offerClassesToday();
    await page.reload();
    await openCheckIn();
    await classTile('Open gym').click();
    await page.getByText('Nobody is booked for this class yet').waitFor({ timeout: 30_000 });
    await classTile('Lunch spin').click();
    await rowOfPat().getByRole('button', { name: 'Check in Pat Parent' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await goOffline();
    const clickedAt = Date.now();
    await rowOfPat().getByRole('button', { name: 'Check in Pat Parent' }).click();
    // At once, on the device: checked in, and said to be waiting to be sent.
    await rowOfPat().getByText('Checked in', { exact: true }).waitFor();
    const recordedBy = Date.now();
    await rowOfPat().getByText('Not sent yet').waitFor();
    await toast(savedOfflineMessage).waitFor();
    await pending('1 action waiting to be sent').waitFor();
    await classTile('Lunch spin').getByText('1 of 1 checked in').waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // Still offline: the shell from the service worker, the check-in from the device.
    await page.reload();
    await page.getByRole('heading', { name: 'Tap your name' }).waitFor();
    await pending('1 action waiting to be sent').waitFor();
    await openCheckIn();
    await classTile('Lunch spin').click();
    await rowOfPat().getByText('Checked in', { exact: true }).waitFor();
    await rowOfPat().getByText('Not sent yet').waitFor();
    const stored = async () =>
      (await server.db.select().from(bookings).where(eq(bookings.id, booking.id)))[0];
    expect((await stored())?.status).toBe('booked');

    // A phone at the desk, then a tablet: the list fits either way.
    await page.setViewportSize({ width: 390, height: 844 });
    await rowOfPat().getByText('Checked in', { exact: true }).waitFor();
    await noSideways();
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1024, height: 768 });
    await noSideways();

    // Long enough that the time it syncs at cannot pass for the time of the tap.
    await page.waitForTimeout(1500);
    const onlineAt = Date.now();
    await goOnline();
    await pending('All actions sent').waitFor({ timeout: 20_000 });
    await rowOfPat().getByText('Not sent yet').waitFor({ state: 'detached', timeout: 20_000 });
    await expect.poll(async () => (await stored())?.status, { timeout: 10_000 }).toBe('attended');
    const checkedInAt = (await stored())?.checkedInAt?.getTime() ?? 0;
    expect(checkedInAt).toBeGreaterThanOrEqual(clickedAt - 1000);
    expect(checkedInAt).toBeLessThanOrEqual(recordedBy);
    expect(checkedInAt).toBeLessThan(onlineAt);
  });
});
