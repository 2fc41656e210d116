// Texts of spec §5 Invite rules and §8 Invite creation failure, to the letter; the rest are
// ours. Tests assert them exactly; the PWA shows them as they are.

export const inviteMessages = {
  invalidEmail: 'Email is invalid',
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  /** spec §8 Invite creation failure (any 5xx of add customer). */
  creationFailed: 'Something went wrong creating this user. The product has been notified!',
} as const;

export const crmMessages = {
  notFound: 'We could not find that customer.',
  notAllowed: 'You do not have access to the customer list.',
  noteRequired: 'A note cannot be empty.',
  invitationInvalid: 'This invitation link is not valid any more. Ask for a new one.',
  /** Issue 14: adding an address that is on the customer list already. */
  alreadyCustomer: 'Already a customer',
  invitationGone: 'This invitation is no longer waiting for an answer.',
  /** Issue 14: Resend invitation for someone who already answered (or has no address). */
  invitationNotPending: 'This customer has no invitation waiting to be sent again.',
  invitationResent: (email: string) => `The invitation was sent again to ${email}.`,
  onlyOwnerAnswers: 'Only the owner of this account can answer its invitations.',
  /** Issue 14: phone numbers are validated (libphonenumber) and stored in E.164. */
  invalidPhone:
    'This is not a valid phone number. For a number from another country, start with + and its country code.',
  /** spec §5 CSV tags rule and its §8 message, for every tag however it is written. */
  tagHasComma: 'Tag name cannot contain commas',
} as const;
