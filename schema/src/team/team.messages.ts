// The Team section's texts (issue 14; the spec names only the claims). Both sides use these,
// and tests assert them exactly.

export const teamMessages = {
  notAllowed: 'You do not have permission to manage the team.',
  noClaims: 'Choose at least one thing this person may do.',
  invalidEmail: 'This is not a valid email.',
  memberNotFound: 'We could not find that member of the team.',
  invitationNotFound: 'We could not find that invitation.',
  alreadyMember: 'This person is already on the team.',
  alreadyInvited: 'An invitation to this address is waiting already. Send it again from the list.',
  beyondOwnClaims: 'You can only give permissions you have yourself.',
  outranked: 'You cannot change a member who can do things you cannot.',
  lastManager:
    'The team needs at least one person who can manage it. Give someone else "Invite staff and change what they may do" first.',
  invitationInvalid: 'This invitation link is not valid any more. Ask for a new one.',
  onlyOwnSession: 'Switch back to your own account to answer this invitation.',
  emptyTeam: 'No one else on the team yet',
  invitationSent: (email: string) => `Invitation sent to ${email}.`,
  invitationResent: (email: string) => `Invitation sent to ${email} again.`,
  invitationCancelled: (email: string) => `The invitation to ${email} is cancelled.`,
  memberChanged: (name: string) => `${name} can now do what you chose.`,
  memberRemoved: (name: string) => `${name} is no longer on the team.`,
  joined: (orgLabel: string) => `Welcome to ${orgLabel}!`,
  declined: 'You declined the invitation.',
  /** The person signed in is not the one invited. */
  otherAccount: (invited: string, signedIn: string) =>
    `This invitation is for ${invited}. You are signed in as ${signedIn}. Sign out and sign in as ${invited} to answer it.`,
} as const;
