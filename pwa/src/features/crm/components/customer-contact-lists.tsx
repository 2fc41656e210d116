import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { contactListMessages } from '@platform/schema/crm/contact-lists.zod';
import { FormNotice } from '../../../components/form-notice.tsx';
import { useToast } from '../../../components/toast/toast-context.ts';
import { failureText } from '../../../lib/request-failure.ts';
import {
  useContactListChanges,
  useContactLists,
  useCustomerContactLists,
} from '../hooks/use-contact-lists.ts';

/**
 * The profile's "Contact lists" (issue 17): the lists this customer is on, each with a Remove
 * button, and a select of the organisation's other lists to add them to one. Server state:
 * online only.
 */
export function CustomerContactLists({
  userId,
  name,
  online,
}: {
  userId: string;
  name: string;
  online: boolean;
}) {
  const toast = useToast();
  const mine = useCustomerContactLists(userId);
  const all = useContactLists();
  const changes = useContactListChanges();
  const [choice, setChoice] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const busy = changes.addMember.isPending || changes.removeMember.isPending;

  const onLists = mine.data?.lists ?? [];
  const offered = (all.data ?? []).filter((list) => !onLists.some((own) => own.id === list.id));

  async function add(event: FormEvent) {
    event.preventDefault();
    const list = offered.find((l) => l.id === choice);
    if (!list) return;
    setFailure(null);
    try {
      await changes.addMember.mutateAsync({ listId: list.id, userId });
      setChoice('');
      toast.success(contactListMessages.memberAdded(name, list.name));
    } catch (caught) {
      setFailure(failureText(caught, 'Adding to the list'));
    }
  }

  async function remove(list: { id: string; name: string }) {
    setFailure(null);
    try {
      await changes.removeMember.mutateAsync({ listId: list.id, userId });
      toast.success(contactListMessages.memberRemoved(name, list.name));
    } catch (caught) {
      setFailure(failureText(caught, 'Removing from the list'));
    }
  }

  return (
    <section className="crm-card" aria-labelledby="crm-contact-lists-heading">
      <h2 id="crm-contact-lists-heading">Contact lists</h2>
      {mine.isPending ? (
        <p className="crm-muted" role="status">
          Loading contact lists…
        </p>
      ) : mine.isError ? (
        <p className="form-error" role="alert">
          {failureText(mine.error, 'Loading the contact lists')}
        </p>
      ) : onLists.length === 0 ? (
        <p className="crm-muted">Not on any contact list.</p>
      ) : (
        <ul className="crm-tags" aria-label="Contact lists of this customer">
          {onLists.map((list) => (
            <li key={list.id} className="crm-tag">
              {list.name}
              <button
                type="button"
                className="crm-tag-remove"
                aria-label={`Remove from ${list.name}`}
                disabled={!online || busy}
                onClick={() => void remove(list)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {all.isSuccess && all.data.length === 0 ? (
        <p className="crm-muted">
          No contact lists yet. <Link to="/dashboard/crm/lists">Create one</Link> to add this
          customer to it.
        </p>
      ) : (
        all.isSuccess &&
        mine.isSuccess &&
        offered.length > 0 && (
          <form className="crm-inline-form" onSubmit={(event) => void add(event)}>
            <div className="field">
              <label htmlFor="crm-add-to-list">Add to list</label>
              <select
                id="crm-add-to-list"
                value={choice}
                onChange={(event) => setChoice(event.target.value)}
              >
                <option value="">Choose a list</option>
                {offered.map((list) => (
                  <option key={list.id} value={list.id}>
                    {list.name}
                  </option>
                ))}
              </select>
            </div>
            <button
              type="submit"
              className="button button-secondary"
              disabled={!online || busy || choice === ''}
            >
              Add to list
            </button>
          </form>
        )
      )}
      {all.isError && (
        <p className="form-error" role="alert">
          {failureText(all.error, 'Loading the organisation’s lists')}
        </p>
      )}
      <FormNotice notice={failure ? { tone: 'error', text: failure } : null} />
    </section>
  );
}
