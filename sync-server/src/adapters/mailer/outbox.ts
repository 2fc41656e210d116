import { desc } from 'drizzle-orm';
import { emailOutbox } from '@platform/schema/db';
import type { Db } from '../../db/open-database.ts';
import type { Mailer, OutgoingEmail } from './port.ts';

/** Embedded default: emails are recorded, and listed on the development mailbox page. */
export class OutboxMailer implements Mailer {
  readonly kind = 'outbox';
  constructor(private readonly db: Db) {}

  async send(email: OutgoingEmail): Promise<void> {
    await this.db.insert(emailOutbox).values({
      orgId: email.orgId ?? null,
      toAddress: email.to,
      subject: email.subject,
      textBody: email.text,
      htmlBody: email.html ?? null,
      status: 'recorded',
    });
  }
}

export async function listOutbox(db: Db, limit = 50) {
  return db.select().from(emailOutbox).orderBy(desc(emailOutbox.createdAt)).limit(limit);
}
