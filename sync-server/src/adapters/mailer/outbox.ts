import { desc } from 'drizzle-orm';
import { emailOutbox } from '@platform/schema/db';
import type { Db } from '../../db/open-database.ts';
import type { MailTransport } from './port.ts';

/**
 * Embedded default: the stored email is the delivery — it stays in email_outbox, body and
 * links included, for the development mailbox page (never served in production).
 */
export class OutboxTransport implements MailTransport {
  readonly kind = 'outbox';
  readonly keepsBodies = true;

  async deliver(): Promise<void> {}
}

export async function listOutbox(db: Db, limit = 50) {
  return db.select().from(emailOutbox).orderBy(desc(emailOutbox.createdAt)).limit(limit);
}
