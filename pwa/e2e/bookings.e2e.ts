import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { bookingPayments, bookings } from '@platform/schema/db';
import { addDays, dayKeyOf, mondayOf } from '@platform/schema/time-tracking/org-calendar';
import type { ClassInput } from '@platform/schema/schedule/schedule.zod';
import { createClassAsStaff as createClass } from '../../sync-server/src/testing/schedule-fixtures.ts';
import {
  addMembership,
  insertTestUser,
  TEST_PASSWORD,
} from '../../sync-server/src/testing/auth-fixtures.ts';
import {
  demoLogins,
  launchBrowser,
  logIn,
  startE2eServer,
  type E2eServer,
} from '../../scripts/e2e/harness.ts';
import { axeViolations } from '../../scripts/e2e/axe.ts';

const zone = 'America/New_York';

/**
 * Issue 16, the customer's side: the demo parent books a class for themself and for their
 * child in Zipper's app, and two phones that both took the last place with no signal are
 * answered when they come back — the first to reach the server gets it, the other is told why
 * and joins the waitlist. Every page reads the device's replica; the verdicts arrive by
 * replication.
 */
describe('booking classes in the customer app', () => {
  let server: E2eServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  // Tomorrow in Zipper's zone, and whether that is already next week on the page.
  const tomorrow = addDays(dayKeyOf(Date.now(), zone), 1);
  const nextWeek = mondayOf(tomorrow) !== mondayOf(dayKeyOf(Date.now(), zone));

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2eServer(), launchBrowser()]);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.close();
  });

  const owner = () => ({ orgId: server.seed.zipperOrgId, userId: server.seed.userIds.owner });
  const offer = (title: string, capacity: number, time: string, priceMinor: number | null = null) =>
    createClass(server.db, owner(), {
      kind: 'class',
      title,
      description: '',
      location: 'Studio 2',
      coachUserId: null,
      capacity,
      priceMinor,
      entitlingProductIds: [],
      punchCardGroupIds: [],
      firstStart: `${tomorrow}T${time}`,
      durationMinutes: 45,
      recurrence: {
        weekdays: ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'],
        intervalWeeks: 1,
        end: { kind: 'count', count: 1 },
      },
    } satisfies ClassInput);

  /** A phone: a fresh profile, 390 px wide, signed in, on My calendar at tomorrow's week. */
  const phone = async (email: string, password?: string): Promise<Page> => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      acceptDownloads: true,
    });
    contexts.push(context);
    const page = await context.newPage();
    await logIn(page, server.url, email, password);
    await page.goto(`${server.url}/dashboard-customer/${server.seed.zipperOrgId}/my-calendar`);
    await page.getByRole('heading', { name: 'Classes and events' }).waitFor();
    if (nextWeek) await page.getByRole('button', { name: 'Next week' }).click();
    return page;
  };
  const classCard = (page: Page, title: string) =>
    page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: title, exact: true }) });
  const yourBooking = (page: Page, title: string, who: string) =>
    page
      .getByRole('list', { name: 'Your bookings' })
      .getByRole('listitem')
      .filter({ hasText: title })
      .filter({ hasText: `For ${who}` });

  it('books for oneself and for a child, from the replica, and shows the server’s answer', async () => {
    await offer('Evening spin', 5, '18:00');
    const page = await phone(demoLogins.parent.email);
    const spin = classCard(page, 'Evening spin');
    await spin.getByText('5 places left · Free').waitFor({ timeout: 30_000 });
    expect(await axeViolations(page)).toEqual([]);

    await spin.getByRole('button', { name: /^Book: Evening spin/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Book Evening spin?' });
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Book' }).click();
    await yourBooking(page, 'Evening spin', 'Pat Parent')
      .getByText('Booked', { exact: true })
      .waitFor({ timeout: 30_000 });
    await spin.getByText('4 places left · Free').waitFor({ timeout: 30_000 });

    // The guardian books their child from their own account.
    await page.getByLabel('Booking for').selectOption({ label: 'Casey Parent' });
    await spin.getByRole('button', { name: /^Book: Evening spin/ }).click();
    await page
      .getByRole('dialog', { name: 'Book Evening spin?' })
      .getByText('for Casey Parent')
      .waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Book' }).click();
    await yourBooking(page, 'Evening spin', 'Casey Parent')
      .getByText('Booked', { exact: true })
      .waitFor({ timeout: 30_000 });
    await spin.getByText('3 places left · Free').waitFor({ timeout: 30_000 });
    expect(await axeViolations(page)).toEqual([]);

    // The booking into the phone's calendar, made on the device from the replica.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      yourBooking(page, 'Evening spin', 'Pat Parent')
        .getByRole('button', { name: /^Add to calendar/ })
        .click(),
    ]);
    expect(download.suggestedFilename()).toBe('Evening-spin.ics');
    expect(await readFile(await download.path(), 'utf8')).toContain('SUMMARY:Evening spin');

    // The private feed: made, read by a calendar app, revoked.
    const feed = page.getByRole('region', { name: 'Calendar feed' });
    await feed.getByRole('button', { name: 'Create link' }).click();
    const link = await feed.getByLabel('Your calendar link').inputValue();
    expect(link).toMatch(/\/ics\/[\w-]+\.ics$/);
    const subscribed = await fetch(link);
    expect(subscribed.status).toBe(200);
    const body = await subscribed.text();
    expect(body).toContain('SUMMARY:Evening spin');
    expect(body.match(/BEGIN:VEVENT/g)).toHaveLength(2);
    expect(await axeViolations(page)).toEqual([]);
    await feed.getByRole('button', { name: 'Revoke link' }).click();
    await feed.getByText('The calendar link is revoked').waitFor();
    expect((await fetch(link)).status).toBe(404);

    const rows = await server.db
      .select()
      .from(bookings)
      .where(eq(bookings.orgId, server.seed.zipperOrgId));
    expect(rows.map((row) => [row.customerUserId, row.status]).sort()).toEqual(
      [
        [server.seed.userIds.parent, 'booked'],
        [server.seed.userIds.child, 'booked'],
      ].sort(),
    );
  });

  it('says so when the timetable has never reached the device and the link is down, and shows it once it comes', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    contexts.push(context);
    const page = await context.newPage();
    // The timetable's first pull never gets through (a dead spot right after signing in).
    const blocked = '**/api/sync/occurrences/pull*';
    await context.route(blocked, (route) => route.abort());
    await logIn(page, server.url, demoLogins.parent.email);
    await page.goto(`${server.url}/dashboard-customer/${server.seed.zipperOrgId}/my-calendar`);
    await page.getByText('Loading your calendar…').waitFor();
    await context.setOffline(true);
    await page
      .getByText(
        'Your calendar has not reached this device yet. It will as soon as you are online again.',
      )
      .waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await context.unroute(blocked);
    await context.setOffline(false);
    await page.getByRole('heading', { name: 'Classes and events' }).waitFor({ timeout: 30_000 });
  });

  it('gives the last place to the phone that syncs first; the other is told why and joins the waitlist', async () => {
    await offer('Last place yoga', 1, '19:30');
    const other = await insertTestUser(server.db, { firstName: 'Robin', lastName: 'Rival' });
    await addMembership(server.db, other.id, server.seed.zipperOrgId, 'customer');
    const [ours, theirs] = [
      await phone(demoLogins.parent.email),
      await phone(other.email!, TEST_PASSWORD),
    ];
    for (const page of [ours, theirs])
      await classCard(page, 'Last place yoga')
        .getByText('1 place left · Free')
        .waitFor({ timeout: 30_000 });

    // Both lose the signal on their first visit, and both take the last place.
    await ours.context().setOffline(true);
    await theirs.context().setOffline(true);
    await classCard(ours, 'Last place yoga').getByRole('button', { name: /^Book/ }).click();
    await ours.getByRole('dialog').getByRole('button', { name: 'Book' }).click();
    await classCard(theirs, 'Last place yoga').getByRole('button', { name: /^Book/ }).click();
    const dialog = theirs.getByRole('dialog', { name: 'Book Last place yoga?' });
    await dialog.getByText('You are offline: the request is kept on this device').waitFor();
    // This one would rather hear "full" than wait.
    await dialog.getByRole('checkbox').uncheck();
    await dialog.getByRole('button', { name: 'Book' }).click();
    for (const [page, who] of [
      [ours, 'Pat Parent'],
      [theirs, 'Robin Rival'],
    ] as const)
      await yourBooking(page, 'Last place yoga', who)
        .getByText('Pending — sent when you are back online')
        .waitFor();
    expect(await axeViolations(theirs)).toEqual([]);

    // Ours reaches the server first.
    await ours.context().setOffline(false);
    await yourBooking(ours, 'Last place yoga', 'Pat Parent')
      .getByText('Booked', { exact: true })
      .waitFor({ timeout: 45_000 });
    await theirs.context().setOffline(false);
    const refused = yourBooking(theirs, 'Last place yoga', 'Robin Rival');
    await refused.getByText('Not booked').waitFor({ timeout: 45_000 });
    await refused.getByText('This class is full.').waitFor();
    expect(await axeViolations(theirs)).toEqual([]);
    await refused.getByRole('button', { name: 'Join the waitlist' }).click();
    await refused.getByText('On the waitlist').waitFor({ timeout: 45_000 });
    await classCard(theirs, 'Last place yoga')
      .getByText('Full — 1 waiting')
      .waitFor({ timeout: 30_000 });

    // The parent cancels in time: the place goes to the person waiting.
    await yourBooking(ours, 'Last place yoga', 'Pat Parent')
      .getByRole('button', { name: 'Cancel booking' })
      .click();
    await ours.getByRole('button', { name: 'Yes, cancel booking' }).click();
    await yourBooking(ours, 'Last place yoga', 'Pat Parent')
      .getByText('Cancelled')
      .waitFor({ timeout: 30_000 });
    await refused.getByText('Booked', { exact: true }).waitFor({ timeout: 45_000 });
  });

  it('pays for a priced class by card when booking, and gets the money back on cancelling in time', async () => {
    await offer('Boxing basics', 8, '07:00', 1_500);
    const buyer = await insertTestUser(server.db, { firstName: 'Casey', lastName: 'Card' });
    await addMembership(server.db, buyer.id, server.seed.zipperOrgId, 'customer');
    const page = await phone(buyer.email!, TEST_PASSWORD);
    const boxing = classCard(page, 'Boxing basics');
    await boxing.getByText('8 places left · $15.00, paid by card when you book').waitFor({
      timeout: 30_000,
    });
    await boxing.getByRole('button', { name: /^Book: Boxing basics/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Book Boxing basics?' });
    await dialog.getByLabel('Card number').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    // A declined card says so, and another one pays.
    await dialog.getByLabel('Card number').fill('4000 0000 0000 0002');
    await dialog.getByLabel('Expiry (MM/YY)').fill('12/34');
    await dialog.getByLabel('Security code').fill('123');
    await dialog.getByRole('button', { name: 'Pay $15.00 and book' }).click();
    await dialog
      .getByRole('alert')
      .getByText(/declined/)
      .waitFor();
    await dialog.getByLabel('Card number').fill('4242 4242 4242 4242');
    await dialog.getByRole('button', { name: 'Pay $15.00 and book' }).click();
    const mine = yourBooking(page, 'Boxing basics', 'Casey Card');
    await mine.getByText('Booked', { exact: true }).waitFor({ timeout: 30_000 });
    await mine.getByText(/^Paid by card: cancel until .* and the money goes back to it$/).waitFor();
    const [row] = await server.db
      .select()
      .from(bookings)
      .where(eq(bookings.customerUserId, buyer.id));
    expect(row).toMatchObject({ status: 'booked', paidWith: 'card' });
    const paid = () =>
      server.db.select().from(bookingPayments).where(eq(bookingPayments.bookingId, row!.id));
    expect((await paid()).map((p) => [p.status, p.amountMinor, p.attempt])).toEqual([
      ['used', 1_500, 2],
    ]);

    await mine.getByRole('button', { name: 'Cancel booking' }).click();
    await page.getByRole('button', { name: 'Yes, cancel booking' }).click();
    await mine.getByText('Cancelled').waitFor({ timeout: 30_000 });
    await expect
      .poll(async () => (await paid()).map((p) => p.status), { timeout: 30_000 })
      .toEqual(['refunded']);
    // The receipt and its refund reach Purchase history by replication.
    await page.goto(`${server.url}/dashboard-customer/${server.seed.zipperOrgId}/purchase-history`);
    const places = page.getByRole('region', { name: 'Classes and appointments paid by card' });
    const receipt = places.getByRole('listitem').filter({ hasText: 'Boxing basics' });
    await receipt.getByText('$15.00', { exact: false }).waitFor({ timeout: 30_000 });
    await receipt.getByText(/^Refunded /).waitFor({ timeout: 30_000 });
    expect(await axeViolations(page)).toEqual([]);
  });
});
