import { brandingPaths } from '@platform/schema/branding/branding.zod';
import { formatMoney } from '@platform/schema/payments/money';
import type { Mailer } from '../adapters/mailer/port.ts';
import type { Notifier } from '../adapters/notifier/port.ts';
import type { Db } from '../db/open-database.ts';
import type { JobPayload } from '../jobs/job-definitions.ts';
import { findBookingPaymentById } from './booking-payments.repository.ts';
import { orgLabel } from './package-invites.repository.ts';
import { emailOf } from './payments.repository.ts';

export const bookingPaymentTexts = {
  paidSubject: (org: string) => `Your receipt from ${org}`,
  paidBody: (amount: string, what: string, org: string) =>
    `Thank you for your payment to ${org}.\n\n${what}: ${amount}\nTotal paid: ${amount}`,
  refundedSubject: (org: string) => `Your refund from ${org}`,
  refundedBody: (amount: string, what: string) =>
    `We have given back ${amount} for ${what} to the card you paid with. Banks take a few days to show it.`,
  pushPaid: 'Payment received',
  pushRefunded: 'Payment refunded',
} as const;

/**
 * The booking-payment-notice job (decision 0070): the payer's receipt when a place was paid
 * for, and word of the refund when its money went back — by email and push, as the Shop's
 * receipts (receipt.service.ts). The payment's state is read when the job runs: a notice
 * whose moment has passed (paid, then refunded before the job ran) still tells what happened.
 */
export async function sendBookingPaymentNotice(
  db: Db,
  ports: { mailer: Mailer; notifier: Notifier; publicUrl: string },
  job: JobPayload<'booking-payment-notice'>,
): Promise<void> {
  const payment = await findBookingPaymentById(db, job.paymentId);
  if (!payment || payment.orgId !== job.orgId) return;
  const charged = !['charging', 'declined'].includes(payment.status);
  if (!charged || (job.kind === 'refunded' && payment.status !== 'refunded')) return;
  const [email, org] = await Promise.all([
    emailOf(db, payment.payerUserId),
    orgLabel(db, payment.orgId),
  ]);
  const amount = formatMoney(payment.amountMinor, payment.currency);
  const historyPath = `${brandingPaths.customerApp(payment.orgId)}/purchase-history`;
  const history = new URL(historyPath, ports.publicUrl).toString();
  const paid = job.kind === 'paid';
  if (email)
    await ports.mailer.send({
      orgId: payment.orgId,
      to: email,
      subject: paid
        ? bookingPaymentTexts.paidSubject(org)
        : bookingPaymentTexts.refundedSubject(org),
      text: [
        paid
          ? bookingPaymentTexts.paidBody(amount, payment.description, org)
          : bookingPaymentTexts.refundedBody(amount, payment.description),
        '',
        `Your purchases and receipts: ${history}`,
      ].join('\n'),
    });
  await ports.notifier.send({
    orgId: payment.orgId,
    userIds: [payment.payerUserId],
    title: paid ? bookingPaymentTexts.pushPaid : bookingPaymentTexts.pushRefunded,
    body: `${amount} · ${payment.description}`,
    url: historyPath,
  });
}
