import { and, eq } from 'drizzle-orm';
import { emailOutbox } from '@platform/schema/db';
import type { Db } from '../../db/open-database.ts';
import type { JobContext } from '../../jobs/job-queue.ts';
import type { MailTransport } from './port.ts';

/** What remains of an email once delivery is done with it: no body, so no live link. */
const withoutBody = { textBody: null, htmlBody: null } as const;

/**
 * The email-delivery job: hands a stored email to the transport, then keeps only recipient,
 * subject, status, times and error. A failure is recorded and thrown (the queue retries with
 * backoff); the last attempt's failure also removes the body. Running twice is harmless: an
 * email no longer pending is left alone.
 */
export async function deliverStoredEmail(
  db: Db,
  transport: MailTransport,
  emailId: string,
  job: JobContext,
): Promise<void> {
  const [email] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, emailId));
  if (!email || email.status !== 'pending' || email.textBody === null) return;
  try {
    await transport.deliver({
      to: email.toAddress,
      subject: email.subject,
      text: email.textBody,
      ...(email.htmlBody === null ? {} : { html: email.htmlBody }),
    });
  } catch (error) {
    const message = String(error).slice(0, 1000);
    if (job.lastAttempt) await abandonEmail(db, emailId, message);
    else await db.update(emailOutbox).set({ error: message }).where(eq(emailOutbox.id, emailId));
    throw error;
  }
  await db
    .update(emailOutbox)
    .set({
      status: transport.keepsBodies ? 'recorded' : 'sent',
      sentAt: new Date(),
      error: null,
      ...(transport.keepsBodies ? {} : withoutBody),
    })
    .where(eq(emailOutbox.id, emailId));
}

/** Failed for good (every retry used, or the job kept timing out): the body goes too. */
export async function abandonEmail(db: Db, emailId: string, error: string): Promise<void> {
  await db
    .update(emailOutbox)
    .set({ status: 'failed', error, ...withoutBody })
    .where(and(eq(emailOutbox.id, emailId), eq(emailOutbox.status, 'pending')));
}
