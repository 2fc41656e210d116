import type { RateRule } from '../rate-limits/rate-limits.ts';

const TEN_MINUTES = 10 * 60_000;

/** Adding a customer says whether an address has an account (decision 0020). */
export const addCustomerLimits = {
  perStaff: { name: 'add-customer-staff', limit: 30, perMs: TEN_MINUTES } satisfies RateRule,
  perAddress: { name: 'add-customer-address', limit: 60, perMs: TEN_MINUTES } satisfies RateRule,
};

/** Sending an invitation again: an email to someone else's address each time (decision 0020). */
export const resendInvitationLimits = {
  perStaff: { name: 'resend-invitation-staff', limit: 20, perMs: TEN_MINUTES } satisfies RateRule,
  perCustomer: {
    name: 'resend-invitation-customer',
    limit: 3,
    perMs: 60 * 60_000,
  } satisfies RateRule,
};
