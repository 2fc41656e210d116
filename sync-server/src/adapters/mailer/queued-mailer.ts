import { emailOutbox } from '@platform/schema/db';
import type { Db, Tx } from '../../db/open-database.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { Mailer, MailTransport, OutgoingEmail } from './port.ts';

/**
 * The app's Mailer: stores the email (with the body its delivery needs) and queues the
 * delivery job in one transaction — the caller's when it passes one. The request that sent it
 * never waits for a mail server (decision 0015).
 */
export class QueuedMailer implements Mailer {
  constructor(
    private readonly db: Db,
    private readonly jobs: Pick<JobQueue, 'enqueue'>,
    readonly kind: MailTransport['kind'],
  ) {}

  async send(email: OutgoingEmail, options: { tx?: Tx } = {}): Promise<void> {
    if (options.tx) return this.store(options.tx, email);
    await this.db.transaction((tx) => this.store(tx, email));
  }

  private async store(tx: Tx, email: OutgoingEmail): Promise<void> {
    const [row] = await tx
      .insert(emailOutbox)
      .values({
        orgId: email.orgId ?? null,
        toAddress: email.to,
        subject: email.subject,
        textBody: email.text,
        htmlBody: email.html ?? null,
        status: 'pending',
      })
      .returning({ id: emailOutbox.id });
    if (!row) throw new Error('email not stored');
    await this.jobs.enqueue('email-delivery', { emailId: row.id }, { tx });
  }
}
