import { auditLog } from '@platform/schema/db';
import type { Db } from '../db/open-database.ts';

export type AuditEntry = {
  orgId: string | null;
  actorUserId: string;
  subjectUserId: string;
  action: 'impersonate' | 'switch-profile';
  detail: Record<string, unknown>;
};

export async function insertAuditEntry(db: Db, entry: AuditEntry) {
  await db.insert(auditLog).values(entry);
}
