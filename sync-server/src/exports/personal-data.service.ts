import { keyboardOf } from '../access/act-for.ts';
import type { Db } from '../db/open-database.ts';
import { ownFamilyOf } from '../families/families.service.ts';
import type { SessionContext } from '../plugins/session.ts';
import { enforce, type RateRule } from '../rate-limits/rate-limits.ts';
import { auditPersonalData, personalRows } from './personal-data.repository.ts';

/** Each download reads across every organisation of the account: a few an hour is plenty. */
export const personalDataLimit = {
  name: 'personal-data-export',
  limit: 5,
  perMs: 60 * 60_000,
} satisfies RateRule;

/**
 * "Download my data" (issue 17): a person's own data across the organisations they belong to,
 * what they may take with them. The session's account is the one exported — a guardian switched
 * into a child gets the child's, as they act for the child everywhere else — and the audit row
 * names who was at the keyboard.
 */
export async function personalData(db: Db, current: Pick<SessionContext, 'session' | 'user'>) {
  const keyboard = keyboardOf(current);
  await enforce(db, [{ rule: personalDataLimit, subject: keyboard ?? current.user.id }]);
  await auditPersonalData(db, {
    actorUserId: keyboard ?? current.user.id,
    subjectUserId: current.user.id,
    switchedFrom: keyboard,
  });
  const rows = await personalRows(db, current.user.id);
  return {
    exportedAt: new Date().toISOString(),
    profile: rows.profile,
    memberships: rows.memberships,
    family: await ownFamilyOf(db, current.user.id),
    purchases: rows.purchases,
    bookings: rows.bookings,
  };
}
