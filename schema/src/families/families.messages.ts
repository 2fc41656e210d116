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
  /** Staff may give a guardian only to accounts the family manages (no sign-in of their own). */
  signsInThemselves:
    'This person signs in to their own account, so only they can add a guardian to it.',
  /** Staff may link an existing account only when it is already on their customer list. */
  notYourCustomer:
    'This person has an account but is not one of your customers. Add them as a customer first.',
  notAllowed: 'You do not have permission to do this.',
} as const;
