import type { FastifyInstance } from 'fastify';
import { abandonEmail, deliverStoredEmail } from '../adapters/mailer/email-delivery.ts';
import type { MailTransport } from '../adapters/mailer/port.ts';
import { requestPasswordReset } from '../auth/password-reset.service.ts';
import { queueBookingReminders, sendBookingNotices } from '../bookings/booking-notice.service.ts';
import { abandonExport, runExport } from '../exports/exports.service.ts';
import { abandonImport, runImport } from '../imports/imports.service.ts';
import { pruneExpiredData } from '../maintenance/prune.service.ts';
import { queueBookingRefunds, refundBookingPayment } from '../payments/booking-payments.service.ts';
import { sendBookingPaymentNotice } from '../payments/booking-payment-notice.service.ts';
import {
  queuePendingCardStarts,
  startCardSubscriptions,
} from '../payments/card-subscription-start.service.ts';
import { sendReceipt } from '../payments/receipt.service.ts';
import { sendRenewalFailedNotice } from '../payments/renewal-notice.service.ts';
import { renewSubscription } from '../payments/renewal.service.ts';
import { queueDueRenewals } from '../payments/renewals-due.service.ts';
import {
  endAgreedSubscriptions,
  windDownAgreedEnds,
} from '../payments/subscription-ends.service.ts';

/** Each feature's background work, composed in one place (as features.ts composes routes). */
export function registerJobHandlers(app: FastifyInstance, deps: { mailTransport: MailTransport }) {
  const { db, jobs } = app;
  jobs.handle(
    'email-delivery',
    (payload, job) => deliverStoredEmail(db, deps.mailTransport, payload.emailId, job),
    (payload, error) => abandonEmail(db, payload.emailId, error),
  );
  jobs.handle('forgot-password', (payload) =>
    requestPasswordReset(db, app.mailer, app.config.publicUrl, payload.email),
  );
  jobs.handle('push-notice', async (notice) => {
    await app.notifier.send(notice);
  });
  jobs.handle('renewal-failed-notice', (payload) =>
    sendRenewalFailedNotice(db, app.mailer, app.config.publicUrl, payload),
  );
  jobs.handle('payment-receipt', (payload) =>
    sendReceipt(
      db,
      { mailer: app.mailer, notifier: app.notifier, publicUrl: app.config.publicUrl },
      payload,
    ),
  );
  jobs.handle('renewals-due', async () => {
    // Stripe renews its own subscriptions and tells us by webhook (decision 0057).
    if (app.paymentProcessor.kind !== 'sandbox') return;
    const queued = await queueDueRenewals(db, jobs);
    if (queued > 0) app.log.info({ queued }, 'sandbox renewals queued');
  });
  jobs.handle('subscription-ends', async () => {
    const ended = await endAgreedSubscriptions(db);
    if (ended > 0) app.log.info({ ended }, 'subscriptions ended on their agreed day');
    const stopping = await windDownAgreedEnds({ db, processor: app.paymentProcessor });
    if (stopping > 0)
      app.log.info({ stopping }, 'subscriptions set to end before their agreed day');
  });
  jobs.handle('subscription-renewal', async (payload) => {
    if (app.paymentProcessor.kind !== 'sandbox') return;
    await renewSubscription({ db, processor: app.paymentProcessor, jobs }, payload);
  });
  jobs.handle('booking-notice', (payload) =>
    sendBookingNotices(
      db,
      { mailer: app.mailer, notifier: app.notifier, publicUrl: app.config.publicUrl },
      payload,
    ),
  );
  jobs.handle('booking-reminders', async () => {
    const queued = await queueBookingReminders(db, jobs);
    if (queued > 0) app.log.info({ queued }, 'booking reminders queued');
  });
  jobs.handle('booking-refund', async (payload) => {
    const outcome = await refundBookingPayment(
      { db, processor: app.paymentProcessor, jobs, log: app.log },
      payload.paymentId,
    );
    if (outcome === 'refused')
      app.log.warn({ paymentId: payload.paymentId }, 'a booking payment could not be refunded');
  });
  jobs.handle('booking-payment-notice', (payload) =>
    sendBookingPaymentNotice(
      db,
      { mailer: app.mailer, notifier: app.notifier, publicUrl: app.config.publicUrl },
      payload,
    ),
  );
  jobs.handle('booking-refunds-due', async () => {
    if (app.paymentProcessor.kind === 'none') return;
    const queued = await queueBookingRefunds(db, jobs, { processor: app.paymentProcessor });
    if (queued > 0) app.log.info({ queued }, 'booking refunds queued');
  });
  jobs.handle('card-subscription-start', async (payload) => {
    await startCardSubscriptions({ db, processor: app.paymentProcessor }, payload);
  });
  jobs.handle('card-subscriptions-pending', async () => {
    const queued = await queuePendingCardStarts(db, jobs, app.paymentProcessor.kind);
    if (queued > 0) app.log.warn({ queued }, 'card subscription starts asked again');
  });
  const processorKind = app.paymentProcessor.kind;
  jobs.handle(
    'csv-import',
    (payload) =>
      runImport(
        {
          database: app.database,
          log: app.log,
          payments:
            processorKind === 'none'
              ? null
              : {
                  mailer: app.mailer,
                  publicUrl: app.config.publicUrl,
                  processor: processorKind,
                  jobs,
                },
        },
        payload.importId,
      ),
    (payload) => abandonImport(db, payload.importId),
  );
  jobs.handle(
    'org-export',
    (payload) => runExport({ db, log: app.log, pagesOf: app.database.pagesOf }, payload.exportId),
    (payload) => abandonExport(db, payload.exportId),
  );
  jobs.handle('prune', async () => {
    const pruned = await pruneExpiredData(db, {
      auditRetentionDays: app.config.auditRetentionDays,
    });
    app.log.info({ pruned }, 'pruned expired data');
  });
}
