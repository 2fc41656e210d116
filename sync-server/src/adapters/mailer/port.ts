import type { Tx } from '../../db/open-database.ts';

export type OutgoingEmail = {
  orgId?: string | null;
  to: string;
  subject: string;
  text: string;
  html?: string;
};

/**
 * The Mailer port (DESIGN.md): every email leaves through it. `send` stores the email and
 * queues its delivery (decision 0015); it never waits for a mail server. Inside `tx` the email
 * exists only if that transaction commits — queue it in the transaction that made its link.
 */
export interface Mailer {
  readonly kind: MailTransport['kind'];
  send(email: OutgoingEmail, options?: { tx?: Tx }): Promise<void>;
}

/** How a stored email leaves, run by the delivery job: SMTP, or the development outbox. */
export interface MailTransport {
  readonly kind: 'outbox' | 'smtp';
  /**
   * True only for the development outbox: its mailbox page shows the body, links included,
   * until pruning removes it. Every other transport's bodies go once delivered.
   */
  readonly keepsBodies: boolean;
  deliver(email: OutgoingEmail): Promise<void>;
  close?(): Promise<void>;
}
