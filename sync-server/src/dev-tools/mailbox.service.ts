import type { MailboxEntry } from '@platform/schema/dev-tools/mailbox.zod';
import { listOutbox } from '../adapters/mailer/outbox.ts';
import type { Db } from '../db/open-database.ts';

export const MAILBOX_SIZE = 50;

export async function listMailbox(db: Db): Promise<MailboxEntry[]> {
  const rows = await listOutbox(db, MAILBOX_SIZE);
  return rows.map((row) => ({
    id: row.id,
    to: row.toAddress,
    subject: row.subject,
    // Only the development outbox keeps bodies; a row whose body went shows none.
    text: row.textBody ?? '',
    createdAt: row.createdAt.toISOString(),
  }));
}
