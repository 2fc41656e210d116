export type OutgoingEmail = {
  orgId?: string | null;
  to: string;
  subject: string;
  text: string;
  html?: string;
};

/** The Mailer port (DESIGN.md): every email leaves through it. */
export interface Mailer {
  readonly kind: 'outbox' | 'smtp';
  send(email: OutgoingEmail): Promise<void>;
}
