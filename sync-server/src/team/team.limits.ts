import type { RateRule } from '../rate-limits/rate-limits.ts';

const HOUR = 60 * 60_000;

/**
 * Every send of a team invitation (new or again) is an email to an address someone typed
 * (decision 0020): limited per person sending and per organisation, so a taken-over account
 * cannot turn the platform into a mailer.
 */
export const teamInvitationLimits = {
  perManager: { name: 'team-invitation-manager', limit: 20, perMs: HOUR } satisfies RateRule,
  perOrg: { name: 'team-invitation-org', limit: 50, perMs: 24 * HOUR } satisfies RateRule,
};
