import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { bookings, classOccurrences, scheduleClasses } from '@platform/schema/db';
import { addDays, dayKeyOf, mondayOf } from '@platform/schema/time-tracking/org-calendar';
import {
  demoLogins,
  launchBrowser,
  logIn,
  startE2eServer,
  type E2eServer,
} from '../../scripts/e2e/harness.ts';
import { axeViolations } from '../../scripts/e2e/axe.ts';
import { createClassAsStaff } from '../../sync-server/src/testing/schedule-fixtures.ts';

const zone = 'America/New_York';

/**
 * Issue 16, the staff side: the owner adds a weekly class in the calendar (a browser in Tokyo:
 * the calendar speaks the organisation's New York time), opens one of its times, adds a
 * customer with the CRM's picker, checks them in, and cancels another time.
 */
describe('the staff calendar', () => {
  let server: E2eServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2eServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  // Next Monday and Wednesday in New York, whatever day the test runs.
  const nextMonday = addDays(mondayOf(dayKeyOf(Date.now(), zone)), 7);

  const notice = (page: Page, text: string | RegExp) =>
    page
      .getByRole('status', { name: 'Notifications' })
      .getByText(text)
      .waitFor({ timeout: 20_000 });

  /** The owner on the staff calendar, on a desktop screen. */
  const ownerOnCalendar = async () => {
    const page = await (
      await browser.newContext({ viewport: { width: 1280, height: 900 } })
    ).newPage();
    await logIn(page, server.url, demoLogins.owner.email);
    await page.goto(`${server.url}/dashboard/calendar`);
    await page.getByRole('heading', { name: 'Schedule', level: 1 }).waitFor();
    return page;
  };

  it('creates a weekly class, shows it in the organisation’s time, and runs its roster', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      timezoneId: 'Asia/Tokyo',
    });
    const page = await context.newPage();
    await logIn(page, server.url, demoLogins.owner.email);
    await page.goto(`${server.url}/dashboard/calendar`);
    await page.getByRole('heading', { name: 'Schedule', level: 1 }).waitFor();
    // Next week: the demo's Monday yoga is always there, and so is the class made below.
    await page.getByRole('button', { name: 'Next Week' }).click();
    await page
      .getByRole('button', { name: /Morning yoga/ })
      .first()
      .waitFor({ timeout: 30_000 });
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'New class or event' }).click();
    const dialog = page.getByRole('dialog', { name: 'New class or event' });
    await dialog.getByRole('button', { name: 'Add to the calendar' }).click();
    await dialog.getByText('Title is required.').waitFor();
    await dialog.getByLabel('Title').fill('Evening HIIT');
    await dialog.getByLabel('Location').fill('Studio 3');
    await dialog.getByLabel('Coach').selectOption({ label: 'Sam Staff' });
    await dialog.getByLabel('Capacity').fill('8');
    await dialog.getByLabel('First day').fill(nextMonday);
    await dialog.getByLabel('Start').fill('18:30');
    for (const day of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']) {
      const box = dialog.getByRole('checkbox', { name: day, exact: true });
      if (['Mon', 'Wed'].includes(day)) await box.check();
      else await box.uncheck();
    }
    await dialog.getByLabel('Number of times', { exact: true }).fill('6');
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Add to the calendar' }).click();
    await notice(page, 'Evening HIIT added: 6 times.');

    const [series] = await server.db
      .select()
      .from(scheduleClasses)
      .where(eq(scheduleClasses.title, 'Evening HIIT'));
    expect(series).toMatchObject({
      rrule: 'FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,WE;COUNT=6',
      timeZone: zone,
    });
    const times = await server.db
      .select()
      .from(classOccurrences)
      .where(eq(classOccurrences.classId, series!.id))
      .orderBy(classOccurrences.startsAt);
    expect(times).toHaveLength(6);

    // Next week in the calendar: Monday and Wednesday at 6:30 PM New York time.
    const hiit = page.getByRole('button', { name: /Evening HIIT \(0\/8\)/ });
    await hiit.first().waitFor({ timeout: 30_000 });
    expect(await hiit.count()).toBe(2);
    expect(await hiit.first().innerText()).toContain('6:30');

    // Its first time: add the demo parent, check them in.
    await hiit.first().click();
    const panel = page.getByRole('dialog', { name: 'Evening HIIT' });
    await panel.getByText('Nobody booked yet.').waitFor();
    await panel.getByRole('button', { name: /Add a customer/ }).click();
    const picker = page.getByRole('dialog', { name: 'Select a customer' });
    await picker.getByLabel('Search customers').fill('Pat');
    await picker
      .getByRole('list', { name: 'Customers' })
      .getByRole('button', { name: /Pat Parent/ })
      .click();
    const row = panel.getByRole('listitem').filter({ hasText: 'Pat Parent' });
    await row.getByText(/^Booked/).waitFor({ timeout: 30_000 });
    expect(await axeViolations(page)).toEqual([]);
    await row.getByRole('button', { name: 'Check in Pat Parent' }).click();
    await row.getByText(/^Checked in/).waitFor();
    await expect
      .poll(
        async () => {
          const [stored] = await server.db
            .select()
            .from(bookings)
            .where(
              and(
                eq(bookings.occurrenceId, times[0]!.id),
                eq(bookings.customerUserId, server.seed.userIds.parent),
              ),
            );
          return stored?.status;
        },
        { timeout: 30_000 },
      )
      .toBe('attended');
    await page.keyboard.press('Escape');

    // The second time is cancelled.
    await page
      .getByRole('button', { name: /Evening HIIT/ })
      .nth(1)
      .click();
    await page
      .getByRole('dialog', { name: 'Evening HIIT' })
      .getByRole('button', { name: 'Cancel this time' })
      .click();
    await page.getByRole('button', { name: 'Yes, cancel this time' }).click();
    await notice(page, /cancelled; everyone booked is told/);
    await page
      .getByRole('button', { name: /Cancelled: Evening HIIT/ })
      .waitFor({ timeout: 30_000 });
    const [second] = await server.db
      .select()
      .from(classOccurrences)
      .where(eq(classOccurrences.id, times[1]!.id));
    expect(second?.status).toBe('cancelled');
    await context.close();
  });

  it('shows the week at a phone’s width, with nothing failing axe', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await logIn(page, server.url, demoLogins.owner.email);
    await page.goto(`${server.url}/dashboard/calendar`);
    await page.getByRole('button', { name: 'Next Week' }).click();
    await page
      .getByRole('button', { name: /Morning yoga/ })
      .first()
      .waitFor({ timeout: 30_000 });
    expect(await axeViolations(page)).toEqual([]);
    // Nothing runs past the screen: the week's title wraps, and each class keeps its places
    // count in sight ("Morning yoga (0/12)", not "Morning yoga (0/1").
    const overflow = await page.evaluate(() => {
      const box = document.querySelector('.schedule-calendar')!;
      const clipped = Array.from(box.querySelectorAll('.schedule-list-title')).filter(
        (title) => title.scrollWidth > title.clientWidth,
      );
      return { wider: box.scrollWidth - box.clientWidth, clipped: clipped.length };
    });
    expect(overflow).toEqual({ wider: 0, clipped: 0 });
    await context.close();
  });

  it('draws three class times a day in the month and “+N more”, which opens the day', async () => {
    // Six one-off classes on a Sunday two weeks ahead (the demo has nothing on Sundays).
    const busyDay = addDays(nextMonday, 13);
    for (const hour of ['06', '08', '10', '12', '14', '16'])
      await createClassAsStaff(
        server.db,
        { orgId: server.seed.zipperOrgId, userId: server.seed.userIds.owner },
        {
          kind: 'class',
          title: `Busy ${hour}`,
          description: '',
          location: '',
          coachUserId: null,
          capacity: 5,
          priceMinor: null,
          entitlingProductIds: [],
          punchCardGroupIds: [],
          firstStart: `${busyDay}T${hour}:00`,
          durationMinutes: 30,
          recurrence: {
            weekdays: ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'],
            intervalWeeks: 1,
            end: { kind: 'count', count: 1 },
          },
        },
      );
    const page = await ownerOnCalendar();
    await page.locator('button[aria-label="Month view"]').click();
    const more = page.getByRole('button', { name: /\+3 more/ });
    // The busy day is in this month or the next.
    if (busyDay.slice(0, 7) !== dayKeyOf(Date.now(), zone).slice(0, 7))
      await page.locator('button[aria-label="Next Month"]').click();
    await more.waitFor({ timeout: 30_000 });
    for (const hour of ['06', '08', '10'])
      expect(await page.getByRole('button', { name: new RegExp(`Busy ${hour}`) }).count()).toBe(1);
    expect(await page.getByRole('button', { name: /Busy 12/ }).count()).toBe(0);
    // '+N more' comes after the day's first three.
    const below = await more.boundingBox();
    const third = await page.getByRole('button', { name: /Busy 10/ }).boundingBox();
    expect(below!.y).toBeGreaterThan(third!.y);
    expect(await axeViolations(page)).toEqual([]);
    await more.click();
    await page.getByRole('button', { name: /Busy 16/ }).waitFor();
    expect(await page.getByRole('button', { name: /Busy 06/ }).count()).toBe(1);
  });

  it('reads the month shown first, then the month after, then the month before (issue 16)', async () => {
    const page = await ownerOnCalendar();
    await page.getByRole('status').filter({ hasText: 'Synced' }).waitFor();
    // Each read's User Timing measure (use-live-query.ts): asked → answered.
    const names = ['shown range', 'range after', 'range before'].map(
      (name) => `replica query: calendar ${name}`,
    );
    const allRead = () =>
      page.waitForFunction((all) => {
        const found = all.map((name) => performance.getEntriesByName(name).at(-1));
        return found.every(Boolean)
          ? found.map((m) => ({ start: m!.startTime, end: m!.startTime + m!.duration }))
          : null;
      }, names);
    // The week's three reads first, so none of them answers after the month's clock starts.
    await allRead();
    await page.evaluate((all) => all.forEach((name) => performance.clearMeasures(name)), names);
    await page.locator('button[aria-label="Month view"]').click();
    const handle = await allRead();
    const [shown, after, before] = (await handle.jsonValue()) as Array<{
      start: number;
      end: number;
    }>;
    // One read at a time: each asked once the one before it has answered.
    expect(after!.start).toBeGreaterThanOrEqual(shown!.end);
    expect(before!.start).toBeGreaterThanOrEqual(after!.end);
    await page.context().close();
  });
});
