import { z } from 'zod';

/** GET /api/dev/mailbox: emails the outbox mailer recorded, newest first. */
export const mailboxEntrySchema = z.object({
  id: z.uuid(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type MailboxEntry = z.infer<typeof mailboxEntrySchema>;
