import { describe, expect, it } from 'vitest';
import { claims } from '../organizations/claims.ts';
import {
  claimGroups,
  claimsBeyondActor,
  leavesTeamWithoutManager,
  outranks,
  roleLabelOf,
  roleOf,
  roles,
  TEAM_CLAIM,
} from './team.rules.ts';
import { inviteStaffInputSchema } from './team.zod.ts';
import { teamMessages } from './team.messages.ts';

describe('team rules', () => {
  it('groups every claim of the spec exactly once, each with a label in plain words', () => {
    const grouped = claimGroups.flatMap((group) => group.claims.map((entry) => entry.claim));
    expect([...grouped].sort()).toEqual([...claims].sort());
    for (const group of claimGroups)
      for (const entry of group.claims) expect(entry.label).not.toMatch(/manage-|view-/);
  });

  it('names a role only when the claims match it exactly', () => {
    expect(roleOf([...claims].reverse())).toBe('owner');
    expect(roleOf(roles['front-desk'].claims)).toBe('front-desk');
    expect(roleOf(roles.coach.claims)).toBe('coach');
    expect(roleOf(roles.manager.claims)).toBe('manager');
    expect(roleOf([...roles.coach.claims, 'manage-blog-posts'])).toBeNull();
    expect(roleLabelOf(['manage-blog-posts'])).toBe('Custom');
    expect(roles.manager.claims).not.toContain(TEAM_CLAIM);
  });

  it('never lets anyone give what they do not hold, themselves included', () => {
    const coach = roles.coach.claims;
    expect(claimsBeyondActor(coach, coach, [...coach, 'manage-org-staff'])).toEqual([
      'manage-org-staff',
    ]);
    expect(claimsBeyondActor(claims, coach, roles['front-desk'].claims)).toEqual([]);
    // Keeping what someone already had is no raise, even when the actor lacks it.
    expect(claimsBeyondActor(['manage-org-staff'], coach, coach)).toEqual([]);
  });

  it('keeps members who can do more than the actor out of reach', () => {
    expect(outranks(roles.manager.claims, claims)).toBe(true);
    expect(outranks(claims, roles.manager.claims)).toBe(false);
  });

  it('refuses the change that leaves nobody able to manage the team', () => {
    const team = [
      { userId: 'a', claims: [...claims] },
      { userId: 'b', claims: [...roles.coach.claims] },
    ];
    expect(leavesTeamWithoutManager(team, { userId: 'a', claims: null })).toBe(true);
    expect(leavesTeamWithoutManager(team, { userId: 'a', claims: roles.manager.claims })).toBe(
      true,
    );
    expect(leavesTeamWithoutManager(team, { userId: 'b', claims: null })).toBe(false);
    expect(leavesTeamWithoutManager(team, { userId: 'b', claims: [TEAM_CLAIM] })).toBe(false);
  });

  it('reads an invitation: a trimmed email and at least one known claim, in the spec order', () => {
    const parsed = inviteStaffInputSchema.parse({
      email: ' Dana@Example.test ',
      claims: ['view-customers', 'manage-own-time-tracking', 'view-customers'],
    });
    expect(parsed).toEqual({
      email: 'Dana@Example.test',
      claims: ['manage-own-time-tracking', 'view-customers'],
    });
    const empty = inviteStaffInputSchema.safeParse({ email: 'dana@example.test', claims: [] });
    expect(empty.error?.issues[0]?.message).toBe(teamMessages.noClaims);
    expect(inviteStaffInputSchema.safeParse({ email: 'x', claims: ['nope'] }).success).toBe(false);
  });
});
