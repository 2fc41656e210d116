/** What the CRM says beyond the spec's messages (those live in schema/src/crm/crm.messages.ts). */
export const crmTexts = {
  /** The roster search failed (the CRM page and the customer picker). */
  rosterLoadFailed: 'We could not load your customers. Please try again.',
  /** decision 0035: staff act for an account only while their organisation made it and nobody claimed it. */
  familyOwnedByCustomer: (name: string) =>
    `${name || 'This customer'} manages their own family from their account: guardians and child accounts are added there.`,
} as const;
