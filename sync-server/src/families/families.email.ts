import type { OutgoingEmail } from '../adapters/mailer/port.ts';
import { escapeHtml } from '../web/escape-html.ts';

export const SET_PASSWORD_LINK_DAYS = 7;

type Invitation = {
  to: string;
  orgId: string | null;
  /** The organisation the person was added at, if any. */
  orgLabel: string | null;
  recipientFirstName: string;
  /** Who did it: the signed-in account's name. */
  actorName: string;
  link: string;
};

/** A person was made someone's parent/guardian, and an account created for them. */
export function guardianAddedEmail(
  invitation: Invitation & { childName: string; actorIsChild: boolean },
): OutgoingEmail {
  const { actorName, childName } = invitation;
  const what = invitation.actorIsChild
    ? `${actorName} added you as their parent/guardian`
    : `${actorName} added you as a parent/guardian of ${childName}`;
  return invitationEmail(invitation, 'You have been added as a parent/guardian', [
    `${what}${at(invitation.orgLabel)}.`,
    `As their parent/guardian you can manage ${childName}'s bookings and payments.`,
  ]);
}

/**
 * An existing account was linked as someone's parent/guardian: it is told, since the link
 * gives it a say over that person's account, and shown where to undo a mistaken link.
 */
export function guardianLinkedEmail(notice: {
  to: string;
  orgId: string | null;
  orgLabel: string | null;
  recipientFirstName: string;
  actorName: string;
  childName: string;
  actorIsChild: boolean;
  settingsLink: string;
}): OutgoingEmail {
  const { actorName, childName } = notice;
  const what = notice.actorIsChild
    ? `${actorName} added you as their parent/guardian`
    : `${actorName} added you as a parent/guardian of ${childName}`;
  return noticeEmail(notice, 'You have been added as a parent/guardian', [
    `${what}${at(notice.orgLabel)}.`,
    `Once ${childName} has confirmed you, you can manage their bookings and payments from your own account.`,
    'If this is a mistake, disconnect the child account under Manage child accounts in your settings:',
  ]);
}

/**
 * Someone asked to be the parent/guardian of an account that already exists (they typed its
 * address as a child's). Nothing changes until its owner confirms in their settings.
 */
export function childLinkRequestEmail(notice: {
  to: string;
  orgId: string | null;
  orgLabel: string | null;
  guardianName: string;
  settingsLink: string;
}): OutgoingEmail {
  return noticeEmail({ ...notice, recipientFirstName: null }, 'Confirm your parent/guardian', [
    `${notice.guardianName} added this email address as their child's${at(notice.orgLabel)}.`,
    `${notice.guardianName} can act for your account only if you confirm them as your parent/guardian.`,
    'To confirm, or to remove the request if you do not know them, sign in and open the Family section of your settings:',
  ]);
}

function noticeEmail(
  notice: { to: string; orgId: string | null; recipientFirstName: string | null; settingsLink: string },
  subject: string,
  lines: string[],
): OutgoingEmail {
  const greeting = notice.recipientFirstName ? `Hello ${notice.recipientFirstName},` : 'Hello,';
  return {
    orgId: notice.orgId,
    to: notice.to,
    subject,
    text: [greeting, '', ...lines, notice.settingsLink].join('\n'),
    html: [
      `<p>${escapeHtml(greeting)}</p>`,
      ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
      `<p><a href="${escapeHtml(notice.settingsLink)}">Open your settings</a></p>`,
    ].join('\n'),
  };
}

/** A guardian (or staff for them) created a child account that has an email address. */
export function childAccountEmail(
  invitation: Invitation & { guardianName: string; actorIsGuardian: boolean },
): OutgoingEmail {
  const { actorName, guardianName } = invitation;
  const who = invitation.actorIsGuardian ? `${guardianName}, your parent/guardian,` : actorName;
  return invitationEmail(invitation, 'An account has been created for you', [
    `${who} created an account for you${at(invitation.orgLabel)}.`,
    `Once you have chosen a password, confirm ${guardianName} as your parent/guardian in your settings so they can manage it with you.`,
  ]);
}

const at = (orgLabel: string | null) => (orgLabel ? ` at ${orgLabel}` : '');

function invitationEmail(invitation: Invitation, subject: string, lines: string[]): OutgoingEmail {
  const greeting = `Hello ${invitation.recipientFirstName},`;
  const setPassword = 'Choose a password to sign in with this email address:';
  const expiry =
    `The link works for ${SET_PASSWORD_LINK_DAYS} days. After that, use "Forgot your password?"` +
    ' on the log-in page to get a new one.';
  const unexpected = 'If you did not expect this email, you can ignore it.';
  return {
    orgId: invitation.orgId,
    to: invitation.to,
    subject,
    text: [greeting, '', ...lines, '', setPassword, invitation.link, '', expiry, unexpected].join(
      '\n',
    ),
    html: [
      `<p>${escapeHtml(greeting)}</p>`,
      ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
      `<p>${escapeHtml(setPassword)}<br><a href="${escapeHtml(invitation.link)}">Choose your password</a></p>`,
      `<p>${escapeHtml(expiry)} ${escapeHtml(unexpected)}</p>`,
    ].join('\n'),
  };
}
