import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Browser, Locator, Page } from 'playwright-core';
import { appointmentTypes, staffAvailability } from '@platform/schema/db';
import { appointmentMessages } from '@platform/schema/schedule/appointments.zod';
import { formatMoney } from '@platform/schema/payments/money';
import { addDays, dayKeyOf, mondayOf } from '@platform/schema/time-tracking/org-calendar';
import {
  demoLogins,
  launchBrowser,
  launchPersistent,
  logIn,
  startE2eServer,
  type E2eServer,
} from '../../scripts/e2e/harness.ts';
import { axeViolations } from '../../scripts/e2e/axe.ts';

const zone = 'America/New_York';

/**
 * Issue 16, appointments on the staff side: below the calendar the owner adds an appointment
 * type given by Sam, sets Sam's weekly hours and a day off, sees the type arrive in the list by
 * replication, edits it, and stops offering it. Wrong entries show schema/'s own messages.
 */
describe('appointment types and staff hours', () => {
  let server: E2eServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2eServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const nextMonday = addDays(mondayOf(dayKeyOf(Date.now(), zone)), 7);

  const notice = (page: Page, text: string | RegExp) =>
    page
      .getByRole('status', { name: 'Notifications' })
      .getByText(text)
      .waitFor({ timeout: 20_000 });

  /** The section once the replica has answered (its list, or the empty state). */
  const openTypes = async (page: Page): Promise<Locator> => {
    await page.goto(`${server.url}/dashboard/calendar`);
    await page.getByRole('heading', { name: 'Schedule', level: 1 }).waitFor();
    const types = page.getByRole('region', { name: 'Appointment types' });
    await types.getByRole('button', { name: 'New appointment type' }).waitFor({ timeout: 30_000 });
    return types;
  };

  const typeNamed = async (title: string) => {
    const [row] = await server.db
      .select()
      .from(appointmentTypes)
      .where(
        and(eq(appointmentTypes.title, title), eq(appointmentTypes.orgId, server.seed.zipperOrgId)),
      );
    return row;
  };

  it('adds a type for Sam, sets Sam’s hours, edits the type and stops offering it', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await logIn(page, server.url, demoLogins.owner.email);
    const types = await openTypes(page);
    expect(await axeViolations(page)).toEqual([]);

    // Wrong entries are refused here, with the messages the server would answer.
    await types.getByRole('button', { name: 'New appointment type' }).click();
    const dialog = page.getByRole('dialog', { name: 'New appointment type' });
    await dialog.getByRole('button', { name: 'Add appointment type' }).click();
    await dialog.getByText(appointmentMessages.titleRequired, { exact: true }).waitFor();
    await dialog.getByText(appointmentMessages.staffRequired, { exact: true }).waitFor();
    await dialog.getByLabel('Title').fill('Sports massage');
    await dialog.getByLabel('Location').fill('Room 4');
    await dialog.getByLabel('Duration (minutes)').fill('3');
    await dialog.getByLabel('Price (optional)').fill('thirty');
    await dialog.getByRole('button', { name: 'Add appointment type' }).click();
    await dialog.getByText(appointmentMessages.duration, { exact: true }).waitFor();
    await dialog.getByText(appointmentMessages.price, { exact: true }).waitFor();
    expect(await dialog.getByLabel('Duration (minutes)').getAttribute('aria-invalid')).toBe('true');
    expect(await axeViolations(page)).toEqual([]);

    await dialog.getByLabel('Duration (minutes)').fill('45');
    await dialog.getByLabel('Buffer (minutes)').fill('10');
    await dialog.getByLabel('Price (optional)').fill('30');
    await dialog.getByRole('checkbox', { name: 'Sam Staff' }).check();
    await dialog.getByRole('button', { name: 'Add appointment type' }).click();
    await notice(page, 'Sports massage added.');
    const created = await typeNamed('Sports massage');
    expect(created).toMatchObject({
      location: 'Room 4',
      durationMinutes: 45,
      bufferMinutes: 10,
      priceMinor: 3000,
      staffUserIds: [server.seed.userIds.staff],
      deleted: false,
    });

    // The list is the device's replica: the type arrives by replication.
    const item = types.getByRole('listitem').filter({ hasText: 'Sports massage' });
    await item.waitFor({ timeout: 30_000 });
    const listed = await item.innerText();
    expect(listed).toContain('45 min');
    expect(listed).toContain('10 min buffer');
    expect(listed).toContain(formatMoney(3000, created!.currency));
    expect(listed).toContain('Given by Sam Staff');

    // Sam's hours: Monday 10–16 (after an end before the start is refused), Wednesday 9–17,
    // and next Monday off. Whatever Sam had before is cleared first.
    const hours = page.getByRole('region', { name: 'Staff hours for appointments' });
    await hours.getByLabel('Staff member').selectOption({ label: 'Sam Staff' });
    const removeRows = hours.getByRole('button', { name: /^Remove \(/ });
    while ((await removeRows.count()) > 0) await removeRows.first().click();
    const removeDays = hours.getByRole('button', { name: /^Remove this day/ });
    while ((await removeDays.count()) > 0) await removeDays.first().click();
    await hours.getByRole('button', { name: 'Add hours on Monday' }).click();
    await hours.getByLabel('From (Monday, hours 1)').fill('10:00');
    await hours.getByLabel('To (Monday, hours 1)').fill('09:00');
    const saveHours = hours.getByRole('button', { name: 'Save Sam Staff’s hours' });
    await saveHours.click();
    await hours.getByText('The end must be after the start.', { exact: true }).waitFor();
    await hours.getByLabel('To (Monday, hours 1)').fill('16:00');
    await hours.getByRole('button', { name: 'Add hours on Wednesday' }).click();
    await hours.getByRole('button', { name: 'Add a day that differs' }).click();
    await hours.getByLabel('Date (day that differs 1)').fill(nextMonday);
    expect(await hours.getByRole('radio', { name: 'Day off' }).isChecked()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await saveHours.click();
    await hours.getByText('Hours saved for Sam Staff.').waitFor({ timeout: 20_000 });
    const [saved] = await server.db
      .select()
      .from(staffAvailability)
      .where(
        and(
          eq(staffAvailability.orgId, server.seed.zipperOrgId),
          eq(staffAvailability.userId, server.seed.userIds.staff),
        ),
      );
    expect(saved?.weekly).toEqual([
      { weekday: 'MO', from: '10:00', to: '16:00' },
      { weekday: 'WE', from: '09:00', to: '17:00' },
    ]);
    expect(saved?.exceptions).toEqual([{ day: nextMonday, hours: [] }]);

    // Edit: an hour, and free.
    await item.getByRole('button', { name: 'Edit Sports massage' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Sports massage' });
    expect(await edit.getByLabel('Price (optional)').inputValue()).toBe('30.00');
    expect(await edit.getByRole('checkbox', { name: 'Sam Staff' }).isChecked()).toBe(true);
    await edit.getByLabel('Duration (minutes)').fill('60');
    await edit.getByLabel('Price (optional)').fill('');
    await edit.getByRole('button', { name: 'Save the appointment type' }).click();
    await notice(page, 'Sports massage saved.');
    await item.getByText(/60 min/).waitFor({ timeout: 30_000 });
    expect(await item.innerText()).toContain('Free');
    expect(await typeNamed('Sports massage')).toMatchObject({
      durationMinutes: 60,
      priceMinor: null,
    });

    // Stopping every type (the demo may offer one too) leaves the empty state.
    const items = types.getByRole('listitem');
    for (let count = await items.count(); count > 0; count = await items.count()) {
      const title = await items.first().getByRole('heading').innerText();
      await items
        .first()
        .getByRole('button', { name: `Stop offering ${title}` })
        .click();
      await types.getByRole('button', { name: 'Yes, stop offering it' }).click();
      await notice(page, `${title} is no longer offered.`);
      await expect.poll(() => items.count(), { timeout: 30_000 }).toBe(count - 1);
    }
    await types.getByText('No appointment types yet').waitFor();
    expect((await typeNamed('Sports massage'))?.deleted).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });

  it('opens the hours saved above with the network down, after a reload, from the replica', async () => {
    const profile = await launchPersistent();
    try {
      const page = profile.context.pages()[0] ?? (await profile.context.newPage());
      await logIn(page, server.url, demoLogins.owner.email);
      await page.goto(`${server.url}/dashboard/calendar`);
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, {
        timeout: 30_000,
      });
      await page.getByRole('status').filter({ hasText: 'Synced' }).waitFor({ timeout: 60_000 });
      await profile.context.setOffline(true);
      await page.reload();
      const hours = page.getByRole('region', { name: 'Staff hours for appointments' });
      await hours.getByLabel('Staff member').selectOption({ label: 'Sam Staff' });
      await expect
        .poll(() => hours.getByLabel('From (Monday, hours 1)').inputValue(), { timeout: 30_000 })
        .toBe('10:00');
      expect(await hours.getByLabel('To (Monday, hours 1)').inputValue()).toBe('16:00');
      expect(await hours.getByLabel('From (Wednesday, hours 1)').inputValue()).toBe('09:00');
      await profile.context.setOffline(false);
    } finally {
      await profile.close();
    }
  });

  it('works at a phone’s width, by keyboard, with nothing failing axe', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await logIn(page, server.url, demoLogins.owner.email);
    const types = await openTypes(page);
    const hours = page.getByRole('region', { name: 'Staff hours for appointments' });
    await hours.getByLabel('Staff member').waitFor({ timeout: 20_000 });
    await hours.getByRole('button', { name: 'Add hours on Tuesday' }).click();
    await hours.getByRole('button', { name: 'Add a day that differs' }).click();
    await hours.getByRole('radio', { name: 'Other hours' }).check();
    // Neither section is wider than the screen.
    for (const section of [types, hours]) {
      const widths = await section.evaluate((el) => [el.scrollWidth, el.clientWidth]);
      expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
    }
    expect(await axeViolations(page)).toEqual([]);

    // By keyboard: the button opens the dialog, focus lands on its first field.
    await types.getByRole('button', { name: 'New appointment type' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'New appointment type' });
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(
      await dialog.getByLabel('Title').getAttribute('id'),
    );
    await page.keyboard.type('Stretch session');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('appointment-description');
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await context.close();
  });
});
