import { useCallback, useMemo } from 'react';
import type { CustomerNoteDoc } from '@platform/schema/crm/customer-note.zod';
import { normaliseTags } from '@platform/schema/crm/tags.rules';
import type { RosterItemDoc } from '@platform/schema/roster/roster-item.zod';
import { useLiveQuery, type ReplicaDocument } from '../../../db/use-live-query.ts';
import { useSignedInUser } from '../../../lib/current-user.ts';
import { saveDocument } from '../../../sync/local-writes.ts';
import { useAccountSync } from '../../../sync/sync-context.tsx';

export type LocalCustomer = {
  /** 'loading' until the device's database has answered (or there is none yet). */
  status: 'loading' | 'ready';
  /** The customer's replicated roster item; null when this device does not hold it (yet). */
  item: ReplicaDocument<RosterItemDoc> | null;
  /** The notes this device holds about the customer, newest first. */
  notes: CustomerNoteDoc[];
  saveTags: (tags: string[]) => Promise<void>;
  savePhone: (phone: string | null) => Promise<void>;
  addNote: (body: string) => Promise<void>;
};

const newestFirst = (a: { createdAt: string }, b: { createdAt: string }) =>
  b.createdAt.localeCompare(a.createdAt);

/**
 * The customer as this device holds them, and the edits the front desk makes on the device —
 * phone, tags, notes — online or not (issue 7 'Offline at the front desk'). Each edit is a local
 * write that replication sends when it can; the conflict rules of decisions 0005 (roster fields
 * and tags) and 0013 (notes are never changed) settle edits made on two devices.
 */
export function useLocalCustomer(rosterId: string): LocalCustomer {
  const { sync } = useAccountSync();
  const user = useSignedInUser();
  const db = sync?.db ?? null;
  const roster = useLiveQuery(db, 'roster', { selector: { id: rosterId } });
  const item = roster.documents[0] ?? null;
  const customerId = item?.athlete.id ?? '';
  const noteDocs = useLiveQuery(db, 'customer-notes', { selector: { userId: customerId } });
  const notes = useMemo(() => noteDocs.documents.slice().sort(newestFirst), [noteDocs.documents]);

  const saveItem = useCallback(
    async (change: Partial<RosterItemDoc>) => {
      if (!db || !item) throw new Error('This customer is not on this device yet.');
      await saveDocument(db, 'roster', { ...item, ...change });
    },
    [db, item],
  );
  // Tags are case-insensitive (issue 14): one spelling of each reaches the device's item.
  const saveTags = useCallback(
    (tags: string[]) => saveItem({ tags: normaliseTags(tags) }),
    [saveItem],
  );
  const savePhone = useCallback((phone: string | null) => saveItem({ phone }), [saveItem]);
  const addNote = useCallback(
    async (body: string) => {
      if (!db || !item) throw new Error('This customer is not on this device yet.');
      const now = new Date().toISOString();
      await saveDocument(db, 'customer-notes', {
        id: crypto.randomUUID(),
        orgId: item.orgId,
        userId: item.athlete.id,
        body: body.trim(),
        authorId: user.id,
        authorName: user.fullName,
        createdAt: now,
        updatedAt: now,
      });
    },
    [db, item, user.id, user.fullName],
  );

  return {
    status: !db || roster.status === 'loading' ? 'loading' : 'ready',
    item,
    notes,
    saveTags,
    savePhone,
    addNote,
  };
}
