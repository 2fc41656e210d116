import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { bookings } from '@platform/schema/db';
import { appointmentMessages } from '@platform/schema/schedule/appointments.zod';
import { createAppointmentTypeAsStaff } from '../../sync-server/src/testing/schedule-fixtures.ts';
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

/**
 * Issue 16, appointments on the customer's phone: the free times of a type come from the
 * device's replica (the staff member's hours minus what they are busy with), so two phones
 * with no signal can both pick the same time — the one that reaches the server first gets it,
 * the other is told in words and picks another. Sam's demo hours are weekdays; the tests look
 * at next week, which always has them.
 */
describe('booking appointments in the customer app', () => {
  let server: E2eServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2eServer(), launchBrowser()]);
    await createAppointmentTypeAsStaff(
      server.db,
      { orgId: server.seed.zipperOrgId, userId: server.seed.userIds.owner },
      {
        title: 'Free consult',
        description: 'Twenty minutes to talk about your goals.',
        location: 'Front desk',
        durationMinutes: 20,
        bufferMinutes: 10,
        priceMinor: null,
        staffUserIds: [server.seed.userIds.staff],
        entitlingProductIds: [],
        punchCardGroupIds: [],
      },
    );
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.close();
  });

  const phone = async (email: string, password?: string): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    contexts.push(context);
    const page = await context.newPage();
    await logIn(page, server.url, email, password);
    await page.goto(`${server.url}/dashboard-customer/${server.seed.zipperOrgId}/my-calendar`);
    await page.getByRole('heading', { name: 'Classes and events' }).waitFor();
    await page.getByRole('button', { name: 'Next week' }).click();
    return page;
  };
  const consult = (page: Page) =>
    page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Free consult', exact: true }) });
  const yourConsult = (page: Page) =>
    page.getByRole('list', { name: 'Your bookings' }).getByRole('listitem').filter({
      hasText: 'Free consult',
    });
  /** Opens the picker and takes the first time of the first day offered. */
  const pickFirstTime = async (page: Page) => {
    await consult(page).getByRole('button', { name: 'Choose a time: Free consult' }).click();
    const dialog = page.getByRole('dialog', { name: 'Book Free consult' });
    await dialog.getByRole('group', { name: 'Time' }).getByRole('button').first().click();
    return dialog;
  };

  it('gives a time two offline phones picked to the first to sync; the other is told and picks another', async () => {
    const rival = await insertTestUser(server.db, { firstName: 'Robin', lastName: 'Rival' });
    await addMembership(server.db, rival.id, server.seed.zipperOrgId, 'customer');
    const [ours, theirs] = [
      await phone(demoLogins.parent.email),
      await phone(rival.email!, TEST_PASSWORD),
    ];
    for (const page of [ours, theirs])
      await consult(page)
        .getByText(/free times this week · Free/)
        .waitFor({ timeout: 30_000 });
    expect(await axeViolations(ours)).toEqual([]);

    // Both lose the signal on their first visit, and both take the same time.
    await ours.context().setOffline(true);
    await theirs.context().setOffline(true);
    const ourDialog = await pickFirstTime(ours);
    expect(await axeViolations(ours)).toEqual([]);
    await ourDialog.getByRole('button', { name: /^Book / }).click();
    const theirDialog = await pickFirstTime(theirs);
    await theirDialog.getByText('You are offline: the request is kept on this device').waitFor();
    await theirDialog.getByRole('button', { name: /^Book / }).click();
    for (const page of [ours, theirs])
      await yourConsult(page).getByText('Pending — sent when you are back online').waitFor();

    // Ours reaches the server first.
    await ours.context().setOffline(false);
    await yourConsult(ours).getByText('Booked', { exact: true }).waitFor({ timeout: 45_000 });
    await yourConsult(ours).getByText('with Sam Staff').waitFor();
    await theirs.context().setOffline(false);
    const refused = yourConsult(theirs);
    await refused.getByText('Not booked').waitFor({ timeout: 45_000 });
    await refused.getByText(appointmentMessages.slotTaken).waitFor();
    expect(await axeViolations(theirs)).toEqual([]);

    // The time taken is gone from their choices; they book the next one offered.
    const again = await pickFirstTime(theirs);
    await again.getByRole('button', { name: /^Book / }).click();
    await yourConsult(theirs)
      .filter({ hasNotText: appointmentMessages.slotTaken })
      .getByText('Booked', { exact: true })
      .waitFor({ timeout: 45_000 });

    const held = await server.db
      .select()
      .from(bookings)
      .where(and(eq(bookings.status, 'booked'), isNotNull(bookings.appointment)));
    expect(held.map((b) => b.customerUserId).sort()).toEqual(
      [server.seed.userIds.parent, rival.id].sort(),
    );
    expect(new Set(held.map((b) => b.appointment?.startsAt)).size).toBe(2);
  });

  it('pays for a priced appointment by card in the time picker, then books it', async () => {
    await createAppointmentTypeAsStaff(
      server.db,
      { orgId: server.seed.zipperOrgId, userId: server.seed.userIds.owner },
      {
        title: 'Sports massage',
        description: '',
        location: 'Room 1',
        durationMinutes: 30,
        bufferMinutes: 0,
        priceMinor: 3_000,
        staffUserIds: [server.seed.userIds.staff],
        entitlingProductIds: [],
        punchCardGroupIds: [],
      },
    );
    const buyer = await insertTestUser(server.db, { firstName: 'Mika', lastName: 'Massage' });
    await addMembership(server.db, buyer.id, server.seed.zipperOrgId, 'customer');
    const page = await phone(buyer.email!, TEST_PASSWORD);
    const massage = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Sports massage', exact: true }) });
    await massage.getByText('$30.00, paid by card when you book', { exact: false }).waitFor({
      timeout: 30_000,
    });
    await massage.getByRole('button', { name: 'Choose a time: Sports massage' }).click();
    const dialog = page.getByRole('dialog', { name: 'Book Sports massage' });
    const pay = dialog.getByRole('button', { name: 'Pay $30.00 and book' });
    // No time chosen yet: nothing to pay for.
    expect(await pay.isDisabled()).toBe(true);
    await dialog.getByRole('group', { name: 'Time' }).getByRole('button').first().click();
    await dialog.getByLabel('Card number').fill('4242 4242 4242 4242');
    await dialog.getByLabel('Expiry (MM/YY)').fill('12/34');
    await dialog.getByLabel('Security code').fill('123');
    expect(await axeViolations(page)).toEqual([]);
    await pay.click();
    await page
      .getByRole('list', { name: 'Your bookings' })
      .getByRole('listitem')
      .filter({ hasText: 'Sports massage' })
      .getByText('Booked', { exact: true })
      .waitFor({ timeout: 30_000 });
    const [held] = await server.db
      .select()
      .from(bookings)
      .where(and(eq(bookings.customerUserId, buyer.id), isNotNull(bookings.appointment)));
    expect(held).toMatchObject({ status: 'booked', paidWith: 'card' });
  });
});
