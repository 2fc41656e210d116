import type { ProfileType } from '@platform/schema/auth/auth.zod';

export type Profile = { view: 'org' | 'customer'; orgId: string | null };
export type MembershipRef = { orgId: string; kind: 'staff' | 'customer' };

function firstOf(
  memberships: readonly MembershipRef[],
  kind: MembershipRef['kind'],
  orgId?: string | null,
) {
  return memberships.find((m) => m.kind === kind && (!orgId || m.orgId === orgId));
}

/** Staff view needs a staff membership; customer view needs a customer one, or no org at all. */
export function isProfileAllowed(memberships: readonly MembershipRef[], profile: Profile): boolean {
  if (profile.view === 'org')
    return profile.orgId !== null && firstOf(memberships, 'staff', profile.orgId) !== undefined;
  return profile.orgId === null || firstOf(memberships, 'customer', profile.orgId) !== undefined;
}

/**
 * The profile a request asks for, or null when the user may not have it (an org they are not
 * staff of, a customer view of an org they do not belong to). 'use-latest' always answers:
 * the saved profile if still allowed, else the first staff membership, else customer view.
 */
export function requestedProfile(
  memberships: readonly MembershipRef[],
  profileType: ProfileType,
  profileOrgId: string | null | undefined,
  lastProfile: Profile | undefined,
): Profile | null {
  if (profileType === 'use-org') {
    const staff = firstOf(memberships, 'staff', profileOrgId);
    return staff ? { view: 'org', orgId: staff.orgId } : null;
  }
  if (profileType === 'use-customer') {
    const customer = firstOf(memberships, 'customer', profileOrgId);
    if (customer) return { view: 'customer', orgId: customer.orgId };
    return profileOrgId ? null : { view: 'customer', orgId: null };
  }
  return latestProfile(memberships, lastProfile);
}

function latestProfile(
  memberships: readonly MembershipRef[],
  lastProfile: Profile | undefined,
): Profile {
  if (lastProfile && isProfileAllowed(memberships, lastProfile)) return lastProfile;
  const staff = firstOf(memberships, 'staff');
  if (staff) return { view: 'org', orgId: staff.orgId };
  return { view: 'customer', orgId: firstOf(memberships, 'customer')?.orgId ?? null };
}

/** At log-in a profile that cannot be had falls back to 'use-latest' instead of failing the log-in. */
export function chooseProfile(
  memberships: readonly MembershipRef[],
  profileType: ProfileType,
  profileOrgId: string | null | undefined,
  lastProfile: Profile | undefined,
): Profile {
  return (
    requestedProfile(memberships, profileType, profileOrgId, lastProfile) ??
    latestProfile(memberships, lastProfile)
  );
}
