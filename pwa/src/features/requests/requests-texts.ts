/** What the Requests section says (decision 0035: the owner of an account decides). */
export const requestsTexts = {
  heading: 'Requests',
  loading: 'Loading requests…',
  loadFailed: 'We could not load your requests. Try again in a moment.',
  offline: 'Requests need a connection. They will be here when you are back online.',
  empty: 'Nothing is waiting for your answer.',
  invitation: (orgLabel: string) => `${orgLabel} invited you to be one of their customers.`,
  guardian: (name: string) => `${name} asked to be your parent/guardian.`,
  guardianWhat:
    'Once you confirm, they can act for your account: bookings, payments, and signing in as you with Switch accounts.',
  accepted: (orgLabel: string) => `You are now a customer of ${orgLabel}.`,
  declined: 'Invitation declined.',
  confirmed: (name: string) => `${name} is now your parent/guardian.`,
  removed: 'Request removed.',
  failed: 'That did not work. Please try again.',
  waiting: (count: number) =>
    count === 1
      ? '1 request is waiting for your answer.'
      : `${count} requests are waiting for your answer.`,
  review: 'Review',
} as const;
