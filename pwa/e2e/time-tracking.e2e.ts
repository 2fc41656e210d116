import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { orgFormat } from '@platform/schema/organizations/org-format';
import { addDays, dayKeyOf, mondayOf } from '@platform/schema/time-tracking/org-calendar';
import {
  savedOfflineMessage,
  timeEntryEditMessages,
} from '@platform/schema/time-tracking/time-tracking.messages';
import { and, eq, isNull } from 'drizzle-orm';
import { timeEntries } from '@platform/schema/db';
import {
  demoLogins,
  launchPersistent,
  logIn,
  useServerAndBrowser,
} from '../../scripts/e2e/harness.ts';
import { openWifi } from '../../scripts/e2e/wifi.ts';

// Zipper Fitness (the seed) keeps its days in New York; last week is all in the past.
const zone = 'America/New_York';
const lastMonday = addDays(mondayOf(dayKeyOf(Date.now(), zone)), -7);
const lastSunday = addDays(lastMonday, 6);
const wednesday = addDays(lastMonday, 2);
/** The heading of a day's list, as the organisation writes it (whatever the browser's locale). */
const dayHeading = (day: string) => orgFormat(zone).day(day);

const toast = (page: Page, text: string) =>
  page.getByRole('status', { name: 'Notifications' }).getByText(text);
const weekRegion = (page: Page) => page.getByRole('region', { name: 'Week', exact: true });
const dayRegion = (page: Page, day: string) =>
  weekRegion(page).getByRole('region', { name: dayHeading(day), exact: true });
/** The cells of the one entry in a day's list. */
async function entryCells(page: Page, day: string): Promise<string[]> {
  const rows = dayRegion(page, day).getByRole('row');
  await expect.poll(() => rows.count()).toBe(2);
  // Intl puts a narrow no-break space before AM/PM: compare with plain spaces.
  const cells = await rows.nth(1).getByRole('cell').allTextContents();
  return cells.slice(0, 4).map((cell) => cell.replace(/\s/g, ' '));
}

/** spec §3 Time tracking, §4 its moves, §7 POST /api/time-tracking, §8 its toasts. */
describe('the time-tracking screen', () => {
  const env = useServerAndBrowser();

  it('takes the staff member through clock in, a break and clock out', async () => {
    const page = await (await env.browser.newContext()).newPage();
    await logIn(page, env.server.url, demoLogins.staff.email);
    await page.goto(`${env.server.url}/dashboard/time-tracking`);
    await page.getByRole('heading', { name: 'Time Tracking', level: 1 }).waitFor();
    await page.getByText('Not clocked in').waitFor();
    await page.getByText('No time recorded today.').waitFor();
    const button = (name: string) => page.getByRole('button', { name, exact: true });
    const toast = (text: string) =>
      page.getByRole('status', { name: 'Notifications' }).getByText(text);

    await button('Clock In').click();
    await toast('Successfully clocked in!').waitFor();
    await page.getByText(/^Clocked in since \d{1,2}:\d\d\s[AP]M$/).waitFor();
    expect(await button('Clock In').count()).toBe(0);

    await button('Start Break').click();
    await toast('Break started!').waitFor();
    await page.getByText(/^On break since \d{1,2}:\d\d\s[AP]M$/).waitFor();

    await button('Return from Break').click();
    await toast('Break ended!').waitFor();
    await page.getByText(/^Clocked in since \d{1,2}:\d\d\s[AP]M$/).waitFor();

    await button('Clock Out').click();
    await toast('Successfully clocked out!').waitFor();
    await page.getByText('Clocked out', { exact: true }).waitFor();
    await button('Clock In').waitFor();

    const rows = page.getByRole('region', { name: 'Today' }).getByRole('row');
    await expect.poll(() => rows.count()).toBe(2); // the header and one entry
    // The organisation's clock (New York: the US way), never seconds (issue 14).
    const cells = (await rows.nth(1).getByRole('cell').allTextContents()).map((cell) =>
      cell.replace(/\s/g, ' '),
    );
    expect(cells[0]).toMatch(/^\d{1,2}:\d\d [AP]M$/);
    expect(cells[1]).toMatch(/^\d{1,2}:\d\d [AP]M$/);
    expect(cells[2]).toMatch(/^\d{1,2}:\d\d [AP]M–\d{1,2}:\d\d [AP]M$/);
    expect(cells[3]).toBe('0h 00m');
  });

  it('keeps working offline from the first visit: a break taken with the Wi-Fi down survives a reload and reaches the server', async () => {
    const wifi = await openWifi(env.server.url);
    const profile = await launchPersistent();
    const { db, seed } = env.server;
    try {
      // A fresh profile, one visit: sign in, open time tracking, clock in.
      const page = await profile.context.newPage();
      await logIn(page, wifi.url, demoLogins.staff.email);
      await page.goto(`${wifi.url}/dashboard/time-tracking`);
      // The first test left the staff member clocked out.
      await page.getByText('Clocked out', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Clock In', exact: true }).click();
      await toast(page, 'Successfully clocked in!').waitFor();
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, {
        timeout: 15_000,
      });

      // The Wi-Fi goes: the link is cut, not only emulated.
      wifi.unplug();
      await profile.context.setOffline(true);
      await page.getByRole('button', { name: 'Start Break', exact: true }).click();
      await toast(page, savedOfflineMessage).waitFor();
      await page.getByText(/^On break since \d{1,2}:\d\d\s[AP]M$/).waitFor();
      // spec §4: on a break the move offered is Return from Break, not Clock Out.
      await page.getByRole('button', { name: 'Return from Break', exact: true }).waitFor();
      expect(await page.getByRole('button', { name: 'Clock Out', exact: true }).count()).toBe(0);

      await page.reload();
      await page.getByText(/^On break since \d{1,2}:\d\d\s[AP]M$/).waitFor();
      await page
        .getByRole('region', { name: 'Account' })
        .getByText(demoLogins.staff.name)
        .waitFor();
      const breakOnServer = async () => {
        const [entry] = await db
          .select()
          .from(timeEntries)
          .where(and(eq(timeEntries.userId, seed.userIds.staff), isNull(timeEntries.endTime)));
        return entry?.breakIntervals.some((interval) => interval.endTime === null) ?? false;
      };
      expect(await breakOnServer()).toBe(false);

      // Back online: the break reaches the server within 5 s.
      wifi.plugIn();
      await profile.context.setOffline(false);
      await expect.poll(breakOnServer, { timeout: 5_000, interval: 100 }).toBe(true);
      await page.getByRole('button', { name: 'Return from Break', exact: true }).click();
      await toast(page, 'Break ended!').waitFor();
      await page.getByRole('button', { name: 'Clock Out', exact: true }).click();
      await toast(page, 'Successfully clocked out!').waitFor();
    } finally {
      await profile.close();
      await wifi.close();
    }
  });

  it('lets a manager correct a staff member’s entry, with the week’s totals, and the staff member sees it', async () => {
    // Sam adds last Wednesday's hours himself, 09:00–17:00.
    const staffContext = await env.browser.newContext({ locale: 'en-US' });
    const staff = await staffContext.newPage();
    await logIn(staff, env.server.url, demoLogins.staff.email);
    await staff.goto(`${env.server.url}/dashboard/time-tracking`);
    await staff.getByRole('button', { name: 'Previous week' }).click();
    await weekRegion(staff).getByRole('button', { name: 'Add entry' }).click();
    const add = staff.getByRole('dialog', { name: 'Add time entry' });
    await add.getByLabel('Start', { exact: true }).fill(`${wednesday}T09:00`);
    await add.getByLabel('End', { exact: true }).fill(`${wednesday}T17:00`);
    await add.getByRole('button', { name: 'Save' }).click();
    await toast(staff, timeEntryEditMessages.created).waitFor();
    expect(await entryCells(staff, wednesday)).toEqual(['9:00 AM', '5:00 PM', 'None', '8h 00m']);

    // The owner sees it in the team's week, picks Sam and corrects it.
    const owner = await (await env.browser.newContext({ locale: 'en-US' })).newPage();
    await logIn(owner, env.server.url, demoLogins.owner.email);
    await owner.goto(`${env.server.url}/dashboard/time-tracking`);
    await owner.getByRole('button', { name: 'Previous week' }).click();
    const team = owner.getByRole('region', { name: 'Team', exact: true });
    await team.getByText('Team total: 8h 00m').waitFor();
    await team.getByRole('button', { name: demoLogins.staff.name }).click();
    await expect
      .poll(() => weekRegion(owner).getByLabel('Person').inputValue())
      .toBe(env.server.seed.userIds.staff);
    expect(await entryCells(owner, wednesday)).toEqual(['9:00 AM', '5:00 PM', 'None', '8h 00m']);

    await dayRegion(owner, wednesday)
      .getByRole('button', { name: /^Edit entry/ })
      .click();
    const edit = owner.getByRole('dialog', { name: 'Edit time entry' });
    await edit.getByLabel('Start', { exact: true }).fill(`${wednesday}T08:30`);
    await edit.getByLabel('End', { exact: true }).fill(`${wednesday}T17:15`);
    await edit.getByRole('button', { name: 'Add break' }).click();
    await edit.getByLabel('Break 1 start').fill(`${wednesday}T12:00`);
    await edit.getByLabel('Break 1 end').fill(`${wednesday}T12:45`);
    await edit.getByRole('button', { name: 'Save' }).click();
    await toast(owner, timeEntryEditMessages.updated).waitFor();
    await edit.waitFor({ state: 'detached' });
    expect(await entryCells(owner, wednesday)).toEqual([
      '8:30 AM',
      '5:15 PM',
      '12:00 PM–12:45 PM',
      '8h 00m',
    ]);
    await dayRegion(owner, wednesday).getByText('Day total: 8h 00m').waitFor();
    await weekRegion(owner).getByText('Week total: 8h 00m').waitFor();
    // The team's grid: Sam's Wednesday and week, the team's day total (issue 14).
    const grid = team.getByRole('table', { name: 'Hours per person and day' });
    const samRow = grid.getByRole('row', { name: new RegExp(`^${demoLogins.staff.name}`) });
    await expect
      .poll(() => samRow.getByRole('cell').allTextContents())
      .toEqual(['0h 00m', '0h 00m', '8h 00m', '0h 00m', '0h 00m', '0h 00m', '0h 00m', '8h 00m']);
    expect(await grid.getByRole('columnheader').allTextContents()).toEqual([
      'Person',
      ...[0, 1, 2, 3, 4, 5, 6].map((i) => orgFormat(zone).shortDay(addDays(lastMonday, i))),
      'Week',
    ]);

    // Sam's open screen shows the corrected times within 2 s, without a reload.
    const corrected = Date.now();
    await expect
      .poll(() => entryCells(staff, wednesday), { timeout: 2_000, interval: 100 })
      .toEqual(['8:30 AM', '5:15 PM', '12:00 PM–12:45 PM', '8h 00m']);
    expect(Date.now() - corrected).toBeLessThan(2_000);
    await weekRegion(staff).getByText('Week total: 8h 00m').waitFor();
    await staffContext.close();

    // The payroll export of last week: the one corrected entry.
    const exportRegion = owner.getByRole('region', { name: 'Export', exact: true });
    expect(await exportRegion.getByLabel('From').inputValue()).toBe(lastMonday);
    expect(await exportRegion.getByLabel('To').inputValue()).toBe(lastSunday);
    const [download] = await Promise.all([
      owner.waitForEvent('download'),
      exportRegion.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`time-entries-${lastMonday}-to-${lastSunday}.csv`);
    const csv = await readFile(await download.path(), 'utf8');
    expect(csv).toBe(
      '\uFEFFPerson,Email,Date,Start,End,Break minutes,Worked hours\r\n' +
        `${demoLogins.staff.name},${demoLogins.staff.email},${wednesday},08:30,17:15,45,8.00\r\n`,
    );
  });

  it('shows a manager who is on the clock now, moving as the staff member clocks on another device (issue 14)', async () => {
    const owner = await (await env.browser.newContext({ locale: 'en-US' })).newPage();
    await logIn(owner, env.server.url, demoLogins.owner.email);
    await owner.goto(`${env.server.url}/dashboard/time-tracking`);
    const onTheClock = owner.getByRole('region', { name: 'On the clock now' });
    await onTheClock.getByText('Nobody is on the clock right now.').waitFor();

    const staffContext = await env.browser.newContext({ locale: 'en-US' });
    const staff = await staffContext.newPage();
    await logIn(staff, env.server.url, demoLogins.staff.email);
    await staff.goto(`${env.server.url}/dashboard/time-tracking`);
    const button = (name: string) => staff.getByRole('button', { name, exact: true });
    await button('Clock In').click();
    await toast(staff, 'Successfully clocked in!').waitFor();
    const sam = onTheClock.getByRole('listitem').filter({ hasText: demoLogins.staff.name });
    await expect
      .poll(() => onTheClock.textContent(), { timeout: 2_000 })
      .toMatch(
        new RegExp(
          `${demoLogins.staff.name}Clocked in since \\d{1,2}:\\d\\d\\s[AP]MToday: 0h 0\\dm`,
        ),
      );

    await button('Start Break').click();
    await toast(staff, 'Break started!').waitFor();
    await expect.poll(() => onTheClock.textContent(), { timeout: 2_000 }).toMatch(/On break since/);

    // Picking the name opens that person's week.
    await sam.getByRole('button', { name: demoLogins.staff.name }).click();
    await expect
      .poll(() => weekRegion(owner).getByLabel('Person').inputValue())
      .toBe(env.server.seed.userIds.staff);

    await button('Return from Break').click();
    await toast(staff, 'Break ended!').waitFor();
    await button('Clock Out').click();
    await toast(staff, 'Successfully clocked out!').waitFor();
    await onTheClock.getByText('Nobody is on the clock right now.').waitFor({ timeout: 2_000 });
    await staffContext.close();
    await owner.context().close();
  });

  it('lays the entry dialog’s breaks out without overflowing, from 320 to 1280 px (issue 14)', async () => {
    const context = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await logIn(page, env.server.url, demoLogins.staff.email);
    await page.goto(`${env.server.url}/dashboard/time-tracking`);
    await weekRegion(page).getByRole('button', { name: 'Add entry' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add time entry' });
    await dialog.getByRole('button', { name: 'Add break' }).click();
    await dialog.getByRole('button', { name: 'Add break' }).click();
    await dialog.getByLabel('Break 2 end').waitFor();
    const overflow = () =>
      dialog.evaluate((element) => {
        const parts = Array.from(element.querySelectorAll('fieldset, .entry-break-row'));
        const wide = [element, ...parts].filter((part) => part.scrollWidth > part.clientWidth);
        return wide.map((part) => `${part.className}: ${part.scrollWidth} > ${part.clientWidth}`);
      });
    for (const width of [390, 320, 768, 1280]) {
      await page.setViewportSize({ width, height: 844 });
      expect(await overflow(), `at ${width} px`).toEqual([]);
      const box = await dialog.getByLabel('Break 2 end').boundingBox();
      expect(box && box.x + box.width, `at ${width} px`).toBeLessThanOrEqual(width);
    }
    await context.close();
  });
});
