import { impersonationMessages } from '@platform/schema/auth/auth.messages';
import type { ProfileType } from '@platform/schema/auth/auth.zod';
import type { Db } from '../db/open-database.ts';
import { Forbidden } from '../plugins/domain-errors.ts';
import type { SessionContext } from '../plugins/session.ts';
import { insertAuditEntry } from './audit.repository.ts';
import { decideActFor, isRefusal, principalOf } from '../access/act-for.ts';
import { listMemberships } from './memberships.repository.ts';
import { chooseProfile, requestedProfile, type Profile } from './profile-choice.ts';
import { revokeSession, type NewSession } from './sessions.repository.ts';
import { findUserById, mergeUserAttributes } from './users.repository.ts';

export type SwitchRequest = {
  impersonate: string;
  profileType?: ProfileType | undefined;
  profileOrgId?: string | undefined;
};

type SwitchKind = 'self' | 'child' | 'return' | 'admin';

/**
 * spec §6 Switch accounts. Allowed: another profile of oneself, one's own child, back to the
 * guardian a child session came from, or anyone for a platform admin. The old session is
 * revoked and the switch audited in one transaction; the caller starts the returned session.
 */
export async function switchAccount(
  db: Db,
  current: SessionContext,
  request: SwitchRequest,
): Promise<NewSession> {
  const kind = await switchKindOf(db, current, request.impersonate);
  const target = kind === 'self' ? current.user : await findUserById(db, request.impersonate);
  if (!target) throw new Forbidden(impersonationMessages.refused);
  const profile = await profileFor(db, target.id, kind, request, target.attributes.lastProfile);
  const next: NewSession = {
    userId: target.id,
    ...profile,
    ...linksAfter(kind, current, target.id),
  };
  const s = current.session;
  await db.transaction(async (tx) => {
    await revokeSession(tx, current.sessionId);
    await insertAuditEntry(tx, {
      orgId: profile.orgId,
      // The person at the keyboard: an admin behind the session, else the guardian behind a child.
      actorUserId: s.impersonatorUserId ?? s.returnToUserId ?? current.user.id,
      subjectUserId: target.id,
      action: kind === 'self' ? 'switch-profile' : 'impersonate',
      detail: { kind, fromUserId: current.user.id, view: profile.view },
    });
    if (kind === 'self') await mergeUserAttributes(tx, target.id, { lastProfile: profile });
  });
  return next;
}

/**
 * Who the target is to the session: itself, the account a switched session came from, or — as
 * the one decision point says (access/act-for.ts) — a child whose owner confirmed this guardian
 * (never an admin or anyone's staff), or anyone for a platform admin. The session plugin asks
 * the same rule again on every request of the switched session.
 */
async function switchKindOf(
  db: Db,
  current: SessionContext,
  targetId: string,
): Promise<SwitchKind> {
  if (targetId === current.user.id) return 'self';
  if (current.session.returnToUserId === targetId) return 'return';
  const decision = await decideActFor(db, principalOf(current), targetId, 'switch');
  if (isRefusal(decision)) throw new Forbidden(impersonationMessages.refused);
  if (decision.as === 'guardian') return 'child';
  if (decision.as === 'admin') return 'admin';
  throw new Forbidden(impersonationMessages.refused);
}

/** Switching one's own profile must name one the user has; others land like a log-in would. */
async function profileFor(
  db: Db,
  userId: string,
  kind: SwitchKind,
  request: SwitchRequest,
  lastProfile: Profile | undefined,
): Promise<Profile> {
  const memberships = await listMemberships(db, userId);
  const profileType = request.profileType ?? 'use-latest';
  const orgId = request.profileOrgId || null;
  if (kind === 'child') return chooseProfile(memberships, 'use-customer', orgId, lastProfile);
  if (kind !== 'self') return chooseProfile(memberships, profileType, orgId, lastProfile);
  const profile = requestedProfile(memberships, profileType, orgId, lastProfile);
  if (!profile) throw new Forbidden(impersonationMessages.refused);
  return profile;
}

/** Who the new session may return to, and which admin stays on record behind it. */
function linksAfter(kind: SwitchKind, current: SessionContext, targetId: string) {
  const { returnToUserId, impersonatorUserId } = current.session;
  switch (kind) {
    case 'self':
      return { returnToUserId, impersonatorUserId };
    case 'child':
      return { returnToUserId: current.user.id, impersonatorUserId };
    case 'admin':
      // The admin may come back the way a guardian does (allowReturnTo names them).
      return { returnToUserId: current.user.id, impersonatorUserId: current.user.id };
    case 'return': {
      const adminStillBehind = impersonatorUserId !== null && impersonatorUserId !== targetId;
      return {
        returnToUserId: adminStillBehind ? impersonatorUserId : null,
        impersonatorUserId: adminStillBehind ? impersonatorUserId : null,
      };
    }
  }
}
