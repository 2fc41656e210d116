import { impersonationMessages } from '@platform/schema/auth/auth.messages';
import type { ProfileType } from '@platform/schema/auth/auth.zod';
import type { Db } from '../db/open-database.ts';
import { Forbidden } from '../plugins/domain-errors.ts';
import type { SessionContext } from '../plugins/session.ts';
import { insertAuditEntry } from './audit.repository.ts';
import { readRole } from '../access/act-for.ts';
import { decideActFor, isRefusal, keyboardOf, principalOf } from '../access/act-for.ts';
import { listMemberships } from './memberships.repository.ts';
import { chooseProfile, requestedProfile, type Profile } from './profile-choice.ts';
import { revokeSession, type NewSession } from './sessions.repository.ts';
import { findUserById, mergeUserAttributes } from './users.repository.ts';

export type SwitchRequest = {
  impersonate: string;
  profileType?: ProfileType | undefined;
  profileOrgId?: string | undefined;
};

type SwitchKind = 'self' | 'guardian' | 'return' | 'admin';

/**
 * spec §6 Switch accounts. Allowed: another profile of oneself, an account whose owner
 * confirmed the person at the keyboard as guardian, back to the person at the keyboard, or
 * anyone for a platform admin. A switched session keeps its keyboard person through every hop
 * (decision 0035): each onward switch is decided for them, and a return lands only on their own
 * session. The old session is revoked and the switch audited in one transaction; the caller
 * starts the returned session.
 */
export async function switchAccount(
  db: Db,
  current: SessionContext,
  request: SwitchRequest,
): Promise<NewSession> {
  const kind = await switchKindOf(db, current, request.impersonate);
  const target = kind === 'self' ? current.user : await findUserById(db, request.impersonate);
  if (!target) throw new Forbidden(impersonationMessages.refused);
  const profile = await profileFor(db, target.id, kind, request, target.attributes.lastProfile, {
    orgId: current.session.orgId ?? null,
  });
  if (kind === 'self' && profile.view === 'org') await refuseStaffViewToGuardian(db, current);
  const next: NewSession = {
    userId: target.id,
    ...profile,
    ...linksAfter(kind, current),
  };
  await db.transaction(async (tx) => {
    await revokeSession(tx, current.sessionId);
    await insertAuditEntry(tx, {
      orgId: profile.orgId,
      actorUserId: keyboardOf(current) ?? current.user.id,
      subjectUserId: target.id,
      action: kind === 'self' ? 'switch-profile' : 'impersonate',
      detail: { kind, fromUserId: current.user.id, view: profile.view },
    });
    if (kind === 'self') await mergeUserAttributes(tx, target.id, { lastProfile: profile });
  });
  return next;
}

/**
 * Who the target is to the session: itself, the person at the keyboard, or — as the one
 * decision point says for the person at the keyboard (access/act-for.ts) — an account whose
 * owner confirmed them as guardian (never an admin or anyone's staff), or anyone for a
 * platform admin. The session plugin asks again on every request of the switched session.
 */
async function switchKindOf(
  db: Db,
  current: SessionContext,
  targetId: string,
): Promise<SwitchKind> {
  if (targetId === current.user.id) return 'self';
  if (keyboardOf(current) === targetId) return 'return';
  const decision = await decideActFor(db, principalOf(current), targetId, 'switch');
  if (isRefusal(decision)) throw new Forbidden(impersonationMessages.refused);
  if (decision.as === 'guardian') return 'guardian';
  if (decision.as === 'admin') return 'admin';
  throw new Forbidden(impersonationMessages.refused);
}

/**
 * A guardian never acts as staff: a session switched into an account goes into its staff view
 * only with an admin at the keyboard (the session plugin asks the same on every request).
 */
async function refuseStaffViewToGuardian(db: Db, current: SessionContext) {
  const keyboard = keyboardOf(current);
  if (keyboard !== null && (await readRole(db, keyboard)) !== 'admin')
    throw new Forbidden(impersonationMessages.refused);
}

/** Switching one's own profile must name one the user has; others land like a log-in would. */
async function profileFor(
  db: Db,
  userId: string,
  kind: SwitchKind,
  request: SwitchRequest,
  lastProfile: Profile | undefined,
  from: { orgId: string | null },
): Promise<Profile> {
  const memberships = await listMemberships(db, userId);
  const profileType = request.profileType ?? 'use-latest';
  const orgId = request.profileOrgId || null;
  // A guardian who names no organisation stays in the one they are in, where the child is a
  // customer too — not whichever of the child's organisations came first.
  if (kind === 'guardian')
    return chooseProfile(memberships, 'use-customer', orgId ?? from.orgId, lastProfile);
  if (kind !== 'self') return chooseProfile(memberships, profileType, orgId, lastProfile);
  const profile = requestedProfile(memberships, profileType, orgId, lastProfile);
  if (!profile) throw new Forbidden(impersonationMessages.refused);
  return profile;
}

/**
 * Who the new session returns to — the person at the keyboard, whatever the hop — and which
 * admin stays on record behind it. Only a return to the keyboard person is an own session.
 */
function linksAfter(kind: SwitchKind, current: SessionContext) {
  const { returnToUserId, impersonatorUserId } = current.session;
  const keyboard = keyboardOf(current) ?? current.user.id;
  switch (kind) {
    case 'self':
      return { returnToUserId, impersonatorUserId };
    case 'guardian':
      return { returnToUserId: keyboard, impersonatorUserId };
    case 'admin':
      return { returnToUserId: keyboard, impersonatorUserId: keyboard };
    case 'return':
      return { returnToUserId: null, impersonatorUserId: null };
  }
}
