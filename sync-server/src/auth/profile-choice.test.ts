import { describe, expect, it } from 'vitest';
import {
  chooseProfile,
  isProfileAllowed,
  requestedProfile,
  type MembershipRef,
} from './profile-choice.ts';

const orgA = '00000000-0000-4000-8000-00000000000a';
const orgB = '00000000-0000-4000-8000-00000000000b';
const both: MembershipRef[] = [
  { orgId: orgA, kind: 'customer' },
  { orgId: orgB, kind: 'staff' },
];

describe('requestedProfile', () => {
  it('use-org picks the named staff membership, or the first one', () => {
    expect(requestedProfile(both, 'use-org', orgB, undefined)).toEqual({
      view: 'org',
      orgId: orgB,
    });
    expect(requestedProfile(both, 'use-org', null, undefined)).toEqual({
      view: 'org',
      orgId: orgB,
    });
    expect(requestedProfile(both, 'use-org', orgA, undefined)).toBeNull();
    expect(requestedProfile([], 'use-org', null, undefined)).toBeNull();
  });

  it('use-customer picks the named customer membership, the first one, or no org', () => {
    expect(requestedProfile(both, 'use-customer', orgA, undefined)).toEqual({
      view: 'customer',
      orgId: orgA,
    });
    expect(requestedProfile(both, 'use-customer', undefined, undefined)).toEqual({
      view: 'customer',
      orgId: orgA,
    });
    expect(requestedProfile([], 'use-customer', undefined, undefined)).toEqual({
      view: 'customer',
      orgId: null,
    });
    expect(requestedProfile(both, 'use-customer', orgB, undefined)).toBeNull();
  });

  it('use-latest keeps a still-valid saved profile, else staff first, else customer', () => {
    expect(requestedProfile(both, 'use-latest', null, { view: 'customer', orgId: orgA })).toEqual({
      view: 'customer',
      orgId: orgA,
    });
    expect(requestedProfile(both, 'use-latest', null, { view: 'org', orgId: orgA })).toEqual({
      view: 'org',
      orgId: orgB,
    });
    expect(
      requestedProfile([{ orgId: orgA, kind: 'customer' }], 'use-latest', null, undefined),
    ).toEqual({
      view: 'customer',
      orgId: orgA,
    });
    expect(requestedProfile([], 'use-latest', null, { view: 'org', orgId: orgB })).toEqual({
      view: 'customer',
      orgId: null,
    });
  });
});

describe('chooseProfile', () => {
  it('falls back to use-latest instead of refusing a log-in', () => {
    expect(chooseProfile([{ orgId: orgA, kind: 'customer' }], 'use-org', orgB, undefined)).toEqual({
      view: 'customer',
      orgId: orgA,
    });
  });
});

describe('isProfileAllowed', () => {
  it('needs staff for org view and membership (or no org) for customer view', () => {
    expect(isProfileAllowed(both, { view: 'org', orgId: orgB })).toBe(true);
    expect(isProfileAllowed(both, { view: 'org', orgId: null })).toBe(false);
    expect(isProfileAllowed(both, { view: 'customer', orgId: null })).toBe(true);
    expect(isProfileAllowed(both, { view: 'customer', orgId: orgB })).toBe(false);
  });
});
