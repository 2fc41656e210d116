import type { OutgoingEmail } from '../adapters/mailer/port.ts';
import { escapeHtml } from '../web/escape-html.ts';
import { TEAM_INVITATION_DAYS } from './team-invitations.repository.ts';

type TeamInvitationEmail = {
  to: string;
  orgId: string;
  orgLabel: string;
  inviterName: string;
  /** null: claims chosen one by one (no role's). */
  roleLabel: string | null;
  /** The page that opens the invitation: it carries the token, the only way in. */
  link: string;
};

/** Issue 14: an invitation to join an organisation's staff. */
export function teamInvitationEmail(invitation: TeamInvitationEmail): OutgoingEmail {
  const as = invitation.roleLabel ? ` as ${invitation.roleLabel}` : '';
  const what = `${invitation.inviterName} invited you to join the team of ${invitation.orgLabel}${as}.`;
  const action =
    'Open this link to see what you will be able to do, then join with your account (or create one with this email address):';
  const expiry = `The link works once, for ${TEAM_INVITATION_DAYS} days.`;
  const unexpected = 'If you did not expect this email, you can ignore it.';
  return {
    orgId: invitation.orgId,
    to: invitation.to,
    subject: `Join the team of ${invitation.orgLabel}`,
    text: ['Hello,', '', what, '', action, invitation.link, '', `${expiry} ${unexpected}`].join(
      '\n',
    ),
    html: [
      '<p>Hello,</p>',
      `<p>${escapeHtml(what)}</p>`,
      `<p>${escapeHtml(action)}<br><a href="${escapeHtml(invitation.link)}">Open the invitation</a></p>`,
      `<p>${escapeHtml(`${expiry} ${unexpected}`)}</p>`,
    ].join('\n'),
  };
}
