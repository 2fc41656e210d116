import { useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { contactListMessages, type ContactList } from '@platform/schema/crm/contact-lists.zod';
import { LoadFailure } from '../../../components/load-failure.tsx';
import { PageLoading } from '../../../components/page-loading.tsx';
import { useToast } from '../../../components/toast/toast-context.ts';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { ContactListMembers } from '../components/contact-list-members.tsx';
import { ContactListNameForm } from '../components/contact-list-name-form.tsx';
import { DeleteContactListDialog } from '../components/delete-contact-list-dialog.tsx';
import { RenameContactListDialog } from '../components/rename-contact-list-dialog.tsx';
import { useContactListChanges, useContactLists } from '../hooks/use-contact-lists.ts';
import '../crm.css';

const membersText = (count: number) =>
  count === 1 ? '1 member' : `${count.toLocaleString()} members`;

/**
 * /dashboard/crm/lists (claim view-customers): the organisation's contact lists (issue 17) —
 * create, rename, delete, and who is on one (`?list=<id>`). Customers are put on a list from
 * their profile. Server state: needs a connection.
 */
export function ContactListsPage() {
  const lists = useContactLists();
  const changes = useContactListChanges();
  const toast = useToast();
  const online = useOnlineStatus();
  const [params, setParams] = useSearchParams();
  const [renaming, setRenaming] = useState<ContactList | null>(null);
  const [deleting, setDeleting] = useState<ContactList | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const selectedId = params.get('list');
  const selected = lists.data?.find((list) => list.id === selectedId) ?? null;
  const show = (id: string | null) => setParams(id ? { list: id } : {}, { replace: true });

  return (
    <section className="page crm contact-lists">
      <p>
        <Link to="/dashboard/crm">← Customers</Link>
      </p>
      <h1 ref={heading} tabIndex={-1}>
        Contact lists
      </h1>
      <p className="crm-muted">
        Named lists of your customers, for the messages you send later. Add a customer to a list
        from their profile.
      </p>
      {!online && (
        <p className="crm-offline" role="status">
          You are offline: contact lists need a connection.
        </p>
      )}
      <ContactListNameForm
        className="crm-inline-form"
        label="New list name"
        what="Creating the list"
        clearOnSave
        onSubmit={async (name) => {
          const created = await changes.create.mutateAsync(name);
          toast.success(contactListMessages.created(created.name));
        }}
        actions={(busy) => (
          <button type="submit" className="button" disabled={busy} aria-busy={busy || undefined}>
            {busy ? 'Creating…' : 'Create list'}
          </button>
        )}
      />
      {lists.isPending ? (
        <PageLoading label="Loading contact lists…" />
      ) : lists.isError ? (
        <LoadFailure
          error={lists.error}
          what="Loading the contact lists"
          onRetry={() => void lists.refetch()}
        />
      ) : lists.data.length === 0 ? (
        <div className="empty-state" role="status">
          <h2>No contact lists yet</h2>
          <p>Create your first list above, then add customers to it from their profiles.</p>
        </div>
      ) : (
        <ul className="contact-lists-list" aria-label="Contact lists">
          {lists.data.map((list) => (
            <li
              key={list.id}
              className="contact-lists-row"
              aria-current={list.id === selectedId || undefined}
            >
              <span className="contact-lists-name">
                <strong>{list.name}</strong>
                <span className="crm-muted">{membersText(list.memberCount)}</span>
              </span>
              <span className="button-row">
                <button
                  type="button"
                  className="button button-secondary button-small"
                  aria-label={`Members of ${list.name}`}
                  aria-pressed={list.id === selectedId}
                  onClick={() => show(list.id === selectedId ? null : list.id)}
                >
                  Members
                </button>
                <button
                  type="button"
                  className="button button-secondary button-small"
                  aria-label={`Rename ${list.name}`}
                  onClick={() => setRenaming(list)}
                >
                  Rename
                </button>
                <button
                  type="button"
                  className="button button-secondary button-small"
                  aria-label={`Delete ${list.name}`}
                  onClick={() => setDeleting(list)}
                >
                  Delete
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {selected && <ContactListMembers list={selected} removeMember={changes.removeMember} />}
      {renaming && (
        <RenameContactListDialog
          list={renaming}
          rename={changes.rename}
          onClose={() => setRenaming(null)}
        />
      )}
      {deleting && (
        <DeleteContactListDialog
          list={deleting}
          remove={changes.remove}
          onClose={() => setDeleting(null)}
          onDeleted={(list) => list.id === selectedId && show(null)}
          returnFocusTo={heading}
        />
      )}
    </section>
  );
}
