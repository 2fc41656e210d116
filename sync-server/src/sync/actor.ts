import { eq } from 'drizzle-orm';
import { guardianLinks } from '@platform/schema/db';
import type { Db } from '../db/open-database.ts';
import type { SessionContext } from '../plugins/session.ts';

/** Who is replicating: the acting account, its view and organisation, claims and family. */
export type Actor = {
  userId: string;
  view: 'org' | 'customer';
  orgId: string | null;
  claims: readonly string[];
  /** The account itself and the children it is guardian of. */
  familyUserIds: readonly string[];
};

export async function actorOf(db: Db, session: SessionContext): Promise<Actor> {
  // Staff scopes never reach a family; only customers need their children looked up.
  const children =
    session.session.view !== 'customer'
      ? []
      : await db
          .select({ id: guardianLinks.childUserId })
          .from(guardianLinks)
          .where(eq(guardianLinks.guardianUserId, session.user.id));
  return {
    userId: session.user.id,
    view: session.session.view,
    orgId: session.session.orgId,
    claims: session.claims,
    familyUserIds: [session.user.id, ...children.map((c) => c.id)],
  };
}

/**
 * What part of a collection an actor may see and change: one organisation, and within it
 * everyone (`ownerIds` null) or only these people. `writable` false means read-only.
 */
export type Scope = { orgId: string; ownerIds: readonly string[] | null; writable: boolean };
