import type { Mailer } from '../adapters/mailer/port.ts';
import type { Db } from '../db/open-database.ts';
import type { JobPayload } from '../jobs/job-definitions.ts';
import { renewalNoticeFacts } from './webhook.repository.ts';

export const renewalNotice = {
  subject: (product: string) => `Your payment for ${product} did not go through`,
  text: (facts: { firstName: string; product: string; organization: string }, signInUrl: string) =>
    [
      `Hello ${facts.firstName},`,
      '',
      `We could not charge your card for your ${facts.product} subscription with ${facts.organization}.`,
      'Your bank declined the payment, or the card has expired. We will try again over the next few days.',
      '',
      `To keep your subscription, sign in at ${signInUrl} and add a card that works, or contact ${facts.organization}.`,
    ].join('\n'),
  /** After the last retry (the sandbox's renewals, decision 0060): nothing more is tried. */
  endedSubject: (product: string) => `Your ${product} subscription has ended`,
  endedText: (
    facts: { firstName: string; product: string; organization: string },
    signInUrl: string,
  ) =>
    [
      `Hello ${facts.firstName},`,
      '',
      `We tried several times and could not charge your card for your ${facts.product} subscription with ${facts.organization}, so it has ended.`,
      '',
      `To subscribe again, sign in at ${signInUrl} and buy it again from the Shop with a card that works, or contact ${facts.organization}.`,
    ].join('\n'),
} as const;

/** The renewal-failed-notice job: one email to the customer whose renewal was declined. */
export async function sendRenewalFailedNotice(
  db: Db,
  mailer: Mailer,
  publicUrl: string,
  notice: JobPayload<'renewal-failed-notice'>,
): Promise<void> {
  const facts = await renewalNoticeFacts(db, notice.subscriptionId);
  // A child account has no address of its own; the organisation sees the status past due.
  if (!facts || facts.orgId !== notice.orgId || !facts.email) return;
  const signInUrl = new URL('/auth/login', publicUrl).toString();
  await mailer.send({
    orgId: notice.orgId,
    to: facts.email,
    subject: notice.ended
      ? renewalNotice.endedSubject(facts.product)
      : renewalNotice.subject(facts.product),
    text: notice.ended
      ? renewalNotice.endedText(facts, signInUrl)
      : renewalNotice.text(facts, signInUrl),
  });
}
