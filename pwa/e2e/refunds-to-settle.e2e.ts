import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { bookingPayments } from '@platform/schema/db';
import { refundsToSettleTexts as texts } from '@platform/schema/payments/refunds-to-settle.zod';
import { axeViolations } from '../../scripts/e2e/axe.ts';
import { demoLogins, logIn, useServerAndBrowser } from '../../scripts/e2e/harness.ts';

/**
 * Issue 16, refunds the processor refused: the owner sees them at the point of sale on a phone,
 * asks the processor again for one and marks another refunded outside the platform (asked
 * first), and the list says when nothing is left to settle.
 */
describe('refunds to settle', () => {
  const env = useServerAndBrowser();

  /** A payment at booking owed back that the processor would not refund. */
  async function refusedRefund(amountMinor: number, description: string) {
    const id = randomUUID();
    const { seed } = env.server;
    await env.server.db.insert(bookingPayments).values({
      id,
      orgId: seed.zipperOrgId,
      bookingId: randomUUID(),
      payerUserId: seed.userIds.parent,
      customerUserId: seed.userIds.child,
      occurrenceId: randomUUID(),
      description,
      amountMinor,
      currency: 'USD',
      status: 'refund-refused',
      failureMessage: 'The charge was disputed; refunds are closed.',
      processorChargeId: null,
      paidAt: new Date(Date.now() - 3 * 86_400_000),
    });
    return id;
  }

  it('asks again for one, marks another refunded outside the platform, then has nothing to settle', async () => {
    const retried = await refusedRefund(2_500, 'Spin, Monday 9:00');
    const marked = await refusedRefund(1_800, 'Yoga, Tuesday 18:00');
    const context = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await logIn(page, env.server.url, demoLogins.owner.email);
    await page.goto(`${env.server.url}/dashboard/pos`);
    const section = page.getByRole('region', { name: texts.heading });
    await section.getByText('$25.00').waitFor();
    await section
      .getByText('The processor said: The charge was disputed; refunds are closed.')
      .first()
      .waitFor();
    expect(await section.getByText(/to Pat Parent \(for Casey/).count()).toBe(2);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/refunds-to-settle-390.png', fullPage: true });

    // Marked refunded: asked first, Cancel is where focus starts.
    await section
      .getByRole('button', { name: `${texts.markRefunded}: $18.00 to Pat Parent` })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Mark this refund as made?' });
    await dialog.waitFor();
    expect(
      await dialog
        .getByRole('button', { name: 'Cancel' })
        .evaluate((b) => b === document.activeElement),
    ).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Yes, it was refunded' }).click();
    await page.getByText(texts.markedRefunded).waitFor();
    await dialog.waitFor({ state: 'detached' });
    const [markedRow] = await env.server.db
      .select()
      .from(bookingPayments)
      .where(eq(bookingPayments.id, marked));
    expect(markedRow).toMatchObject({ status: 'refunded' });

    // Asked again: owed back once more; the processor (no charge recorded) refuses again, and
    // the refund comes back to the list after a reload.
    await section.getByRole('button', { name: `${texts.retry}: $25.00 to Pat Parent` }).click();
    await page.getByText(texts.retried).waitFor();
    await expect
      .poll(
        async () =>
          (
            await env.server.db
              .select()
              .from(bookingPayments)
              .where(eq(bookingPayments.id, retried))
          )[0]!.status,
        { timeout: 20_000 },
      )
      .toBe('refund-refused');
    await env.server.db
      .update(bookingPayments)
      .set({ status: 'refunded' })
      .where(eq(bookingPayments.id, retried));
    await page.reload();
    await page.getByRole('region', { name: texts.heading }).getByText(texts.empty).waitFor();
    await context.close();
  }, 120_000);
});
