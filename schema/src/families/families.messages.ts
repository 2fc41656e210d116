// Texts of spec §5 (Guardian add, Child) and §8 (Create children, Guardian add failure, empty
// states, disconnect confirmation), to the letter. Tests assert them exactly.

export const guardianMessages = {
  invalidEmail: 'A valid email address is required',
  firstNameRequired: 'A first name is required',
  /** spec §5: the last-name rule reuses the first-name message. */
  lastNameRequired: 'A first name is required',
  addFailed: 'We could not add this guardian user.',
  noGuardians: 'There are no parents/guardians for this user.',
  ownGuardian: 'A person cannot be their own guardian.',
} as const;

export const familyMessages = {
  noChildren: 'There are no child accounts currently associated with this account.',
  disconnectConfirm: 'Are you sure you want to disconnect this child account?',
  formInvalid: 'The form is invalid',
  childEmailTaken: 'An account with this email already exists.',
  childEmailRepeated: 'Each child needs a different email address.',
  childEmailIsGuardians: "A child's email cannot be the guardian's email.",
  childrenValid: 'The children are valid.',
  guardianEmailTaken: 'An account with this email already exists.',
  alreadyLinked: 'This child is already linked to this guardian.',
  /** A link that would make someone (through others) a guardian of their own guardian. */
  guardianCycle: 'A child cannot be a guardian of their own guardian.',
  notFound: 'We could not find that person.',
  /**
   * Staff act only for accounts their organisation made and nobody has claimed yet (decision
   * 0035); anyone else decides about their own account.
   */
  signsInThemselves:
    'This person signs in to their own account, so only they can add a guardian to it.',
  /** Staff may link an existing account only when it is already on their customer list. */
  notYourCustomer:
    'This person has an account but is not one of your customers. Add them as a customer first.',
  notAllowed: 'You do not have permission to do this.',
  /** decision 0035: a link waits for the owner of the child's account. */
  onlyOwnerConfirms: 'Only the owner of this account can confirm a parent/guardian.',
  /** decision 0035: who an account's guardians are is its owner's decision. */
  onlyOwnerRemoves: 'Only the owner of this account can remove its parents/guardians.',
  awaitingConfirmation: 'Waiting for confirmation',
  /** Shown beside a child's email field: an email makes the child the owner of their account. */
  /** Issue 14: a child's date of birth (optional). */
  dateOfBirthInvalid: 'Enter a date of birth as a full date.',
  dateOfBirthInFuture: 'A date of birth cannot be in the future.',
  dateOfBirthTooLongAgo: 'A date of birth must be within the last 120 years.',
  childEmailHint:
    'With an email, your child gets their own sign-in and must confirm you before you can act for them. Leave it empty to manage the account yourself.',
} as const;
