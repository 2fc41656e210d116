import { useState } from 'react';
import { familyMessages } from '@platform/schema/families/families.messages';
import { useLiveQuery } from '../../../db/use-live-query.ts';
import { useAccountSync } from '../../../sync/sync-context.tsx';
import type { FamilySubject } from '../family-subject.ts';
import { ManageChildrenDialog } from './manage-children-dialog.tsx';
import { ManageGuardiansDialog } from './manage-guardians-dialog.tsx';
import '../families.css';

type Props = {
  subject: FamilySubject;
  /** Who the server last said the children are (GET /api/me, kept for offline use). */
  knownChildren: ReadonlyArray<{ id: string; fullName: string }>;
  /** The family changed on the server (a guardian or child link came or went). */
  onChanged: () => void;
};

/** Which dialog is open: the person's own guardians or children, or a child's guardians. */
type Open = 'guardians' | 'children' | { childGuardians: { id: string; name: string } } | null;

/**
 * The account and its children, readable offline: names come from the replicated roster on
 * this device; who belongs comes from the last /api/me, since a roster item that left the
 * family (a disconnected child) stays on the device until its scope's database is dropped.
 */
export function FamilySection({ subject, knownChildren, onChanged }: Props) {
  const { sync } = useAccountSync();
  const roster = useLiveQuery(sync?.db ?? null, 'roster');
  const [open, setOpen] = useState<Open>(null);
  const nameOf = new Map(
    roster.documents.map((doc) => {
      const { athlete } = doc;
      return [athlete.id, athlete.fullName];
    }),
  );
  const children = knownChildren.map((child) => ({
    id: child.id,
    name: nameOf.get(child.id) ?? child.fullName,
  }));
  const onOpenChange = (which: Exclude<Open, null>) => (next: boolean) =>
    setOpen(next ? which : null);
  const childGuardians = open !== null && typeof open === 'object' ? open.childGuardians : null;

  return (
    <>
      <ul className="family-list" aria-label="Your family">
        <li className="family-member">
          <span className="family-member-name">{nameOf.get(subject.id) ?? subject.name}</span>
          <span className="family-muted">Your account</span>
        </li>
        {children.map((child) => (
          <li key={child.id} className="family-member">
            <span className="family-member-text">
              <span className="family-member-name">{child.name}</span>
              <span className="family-muted">Child account</span>
            </span>
            {/* A confirmed guardian manages the child's guardians without switching (issue 13). */}
            <button
              type="button"
              className="button button-secondary button-small"
              aria-label={`Parents/guardians of ${child.name}`}
              onClick={() => setOpen({ childGuardians: child })}
            >
              Parents/guardians
            </button>
          </li>
        ))}
      </ul>
      {children.length === 0 && <p className="family-muted">{familyMessages.noChildren}</p>}
      <div className="button-row">
        <button
          type="button"
          className="button button-secondary"
          onClick={() => setOpen('guardians')}
        >
          Manage parent/guardian accounts
        </button>
        <button
          type="button"
          className="button button-secondary"
          onClick={() => setOpen('children')}
        >
          Manage child accounts
        </button>
      </div>
      {open === 'guardians' && (
        <ManageGuardiansDialog
          subject={subject}
          open
          onOpenChange={onOpenChange('guardians')}
          onChanged={onChanged}
        />
      )}
      {childGuardians && (
        <ManageGuardiansDialog
          subject={childGuardians}
          open
          onOpenChange={(next) => !next && setOpen(null)}
          onChanged={onChanged}
        />
      )}
      {open === 'children' && (
        <ManageChildrenDialog
          subject={subject}
          open
          onOpenChange={onOpenChange('children')}
          onChanged={onChanged}
        />
      )}
    </>
  );
}
