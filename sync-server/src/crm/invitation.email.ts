import type { OutgoingEmail } from '../adapters/mailer/port.ts';
import { escapeHtml } from '../web/escape-html.ts';
import { INVITATION_DAYS } from './invitations.repository.ts';

type CustomerInvitation = {
  to: string;
  orgId: string;
  orgLabel: string;
  firstName: string;
  /** The signup link with the invitation token; null for an account that already signs in. */
  signupLink: string | null;
  loginLink: string;
};

/**
 * Add customer (spec §2, §4; decision 0035): the invitation. An account with no owner yet gets
 * a signup link that claims it; an account that signs in is asked to log in and answer.
 */
export function customerInvitationEmail(invitation: CustomerInvitation): OutgoingEmail {
  const greeting = invitation.firstName ? `Hello ${invitation.firstName},` : 'Hello,';
  const what = `${invitation.orgLabel} invited you to be one of their customers.`;
  const action = invitation.signupLink
    ? 'Create your account with this email address to accept and see your bookings and payments:'
    : 'Log in with your account to accept or decline the invitation (under Requests in your settings):';
  const link = invitation.signupLink ?? invitation.loginLink;
  const expiry = invitation.signupLink ? `The link works for ${INVITATION_DAYS} days.` : '';
  const unexpected = 'If you did not expect this email, you can ignore it.';
  return {
    orgId: invitation.orgId,
    to: invitation.to,
    subject: `You have been invited to ${invitation.orgLabel}`,
    text: [greeting, '', what, '', action, link, '', `${expiry} ${unexpected}`.trim()].join('\n'),
    html: [
      `<p>${escapeHtml(greeting)}</p>`,
      `<p>${escapeHtml(what)}</p>`,
      `<p>${escapeHtml(action)}<br><a href="${escapeHtml(link)}">${invitation.signupLink ? 'Create your account' : 'Log in'}</a></p>`,
      `<p>${escapeHtml(`${expiry} ${unexpected}`.trim())}</p>`,
    ].join('\n'),
  };
}
