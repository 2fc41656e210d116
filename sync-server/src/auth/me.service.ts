import { fullName } from '@platform/schema/app/full-name.rules';
import {
  currentUserSchema,
  type CurrentUser,
  type UpdateMeAttributesInput,
} from '@platform/schema/me/me.zod';
import type { Db } from '../db/open-database.ts';
import { findOrganization } from '../organizations/organizations.service.ts';
import type { SessionContext } from '../plugins/session.ts';
import { listPendingInvitations } from '../crm/join-invitations.service.ts';
import { countLinksAwaitingOwner, listChildren } from './guardians.repository.ts';
import { listMemberships } from './memberships.repository.ts';
import { findUserById, mergeUserAttributes } from './users.repository.ts';

/** spec §3 Current user: who the session acts as, in which view, and where it may switch to. */
export async function currentUser(db: Db, current: SessionContext): Promise<CurrentUser> {
  const { user, session, claims } = current;
  const switched = session.returnToUserId !== null || session.impersonatorUserId !== null;
  const [org, memberships, children, returnTo, pendingRequests] = await Promise.all([
    session.orgId ? findOrganization(db, session.orgId) : undefined,
    listMemberships(db, user.id),
    listChildren(db, user.id),
    session.returnToUserId ? findUserById(db, session.returnToUserId) : undefined,
    switched ? 0 : countPendingRequests(db, user.id),
  ]);
  const answer = currentUserSchema.safeParse({
    id: user.id,
    fullName: fullName(user),
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    username: user.username,
    role: user.role,
    view: session.view,
    org: org
      ? { id: org.id, label: org.label, platform: org.platform, timezone: org.attributes.timezone ?? null }
      : null,
    attributes: {
      sidebarExpanded: user.attributes.sidebarExpanded ?? true,
      profileAvatarImageUrl: user.attributes.profileAvatarImageUrl ?? null,
    },
    allowReturnTo: returnTo ? { id: returnTo.id, name: fullName(returnTo) } : null,
    claims: session.view === 'org' ? claims : [],
    profiles: memberships.map((m) => ({
      orgId: m.orgId,
      label: m.label,
      view: m.kind === 'staff' ? 'org' : 'customer',
    })),
    children: children.map((child) => ({ id: child.id, fullName: fullName(child) })),
    pendingRequests,
  });
  // Our own answer breaking the contract is a server fault (500), not a bad request (400).
  if (!answer.success)
    throw new Error('current user does not match currentUserSchema', { cause: answer.error });
  return answer.data;
}

async function countPendingRequests(db: Db, userId: string): Promise<number> {
  const [invitations, links] = await Promise.all([
    listPendingInvitations(db, userId),
    countLinksAwaitingOwner(db, userId),
  ]);
  return invitations.length + links;
}

/** A merge into users.attributes: lastProfile and other keys stay as they are. */
export async function updateMeAttributes(db: Db, userId: string, input: UpdateMeAttributesInput) {
  await mergeUserAttributes(db, userId, { sidebarExpanded: input.sidebarExpanded });
}
