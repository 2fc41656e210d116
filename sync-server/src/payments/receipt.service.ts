import { brandingPaths } from '@platform/schema/branding/branding.zod';
import { formatMoney } from '@platform/schema/payments/money';
import type { Mailer } from '../adapters/mailer/port.ts';
import type { Notifier } from '../adapters/notifier/port.ts';
import type { Db } from '../db/open-database.ts';
import type { JobPayload } from '../jobs/job-definitions.ts';
import * as repo from './payments.repository.ts';
import { orgLabel } from './package-invites.repository.ts';

export const receiptTexts = {
  subject: (org: string) => `Your receipt from ${org}`,
  pushTitle: 'Payment received',
  pushBody: (amount: string, product: string) => `${amount} for ${product}. Thank you!`,
} as const;

/**
 * The payment-receipt job (issue 15): the buyer's receipt by email — what was bought, each line,
 * the total, the next charge — and a push notice to their devices. A child account without an
 * address gets the push only; the purchase is in the family's Purchase history either way.
 */
export async function sendReceipt(
  db: Db,
  ports: { mailer: Mailer; notifier: Notifier; publicUrl: string },
  job: JobPayload<'payment-receipt'>,
): Promise<void> {
  const invoice = await repo.findInvoice(db, job.orgId, job.invoiceId);
  if (!invoice || invoice.status !== 'paid') return;
  const [email, org] = await Promise.all([
    repo.emailOf(db, invoice.customerUserId),
    orgLabel(db, invoice.orgId),
  ]);
  const money = (minor: number) => formatMoney(minor, invoice.currency);
  const history = new URL(
    `${brandingPaths.customerApp(invoice.orgId)}/purchase-history`,
    ports.publicUrl,
  ).toString();
  if (email) {
    const { totals } = invoice;
    await ports.mailer.send({
      orgId: invoice.orgId,
      to: email,
      subject: receiptTexts.subject(org),
      text: [
        `Thank you for your payment to ${org}.`,
        '',
        ...totals.lineItems.map(
          (line) =>
            `${line.description}: ${money(line.finalAmount)}${
              line.discountAmount > 0 ? ` (discount ${money(line.discountAmount)})` : ''
            }`,
        ),
        `Total paid: ${money(totals.total)}`,
        ...(totals.nextBillingDate
          ? [`Next charge: ${money(totals.recurringFinalAmount)} on ${totals.nextBillingDate}`]
          : []),
        '',
        `Your purchases and receipts: ${history}`,
      ].join('\n'),
    });
  }
  await ports.notifier.send({
    orgId: invoice.orgId,
    userIds: [invoice.customerUserId],
    title: receiptTexts.pushTitle,
    body: receiptTexts.pushBody(money(invoice.totalMinor), invoice.productName),
    url: `${brandingPaths.customerApp(invoice.orgId)}/purchase-history`,
  });
}
