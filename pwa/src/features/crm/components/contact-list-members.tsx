import { Link } from 'react-router';
import { contactListMessages, type ContactList } from '@platform/schema/crm/contact-lists.zod';
import { LoadFailure } from '../../../components/load-failure.tsx';
import { PageLoading } from '../../../components/page-loading.tsx';
import { useToast } from '../../../components/toast/toast-context.ts';
import { failureText } from '../../../lib/request-failure.ts';
import { customerProfilePath, fullNameOf } from '../crm-customer.ts';
import { useContactListMembers, type ContactListChanges } from '../hooks/use-contact-lists.ts';

/** Who is on one list, as the roster names them, each with a Remove button. */
export function ContactListMembers({
  list,
  removeMember,
}: {
  list: ContactList;
  removeMember: ContactListChanges['removeMember'];
}) {
  const toast = useToast();
  const query = useContactListMembers(list.id);
  const headingId = `contact-list-members-${list.id}`;

  async function remove(userId: string, name: string) {
    try {
      await removeMember.mutateAsync({ listId: list.id, userId });
      toast.success(contactListMessages.memberRemoved(name, list.name));
    } catch (caught) {
      toast.error(failureText(caught, 'Removing the member'));
    }
  }

  const members = query.data?.members ?? [];
  const total = query.data?.list.memberCount ?? 0;
  return (
    <section className="crm-card" aria-labelledby={headingId}>
      <h2 id={headingId}>Members of {list.name}</h2>
      {query.isPending ? (
        <PageLoading label="Loading members…" />
      ) : query.isError ? (
        <LoadFailure
          error={query.error}
          what="Loading the members"
          onRetry={() => void query.refetch()}
        />
      ) : members.length === 0 ? (
        <p className="crm-muted" role="status">
          No members yet. Add customers to this list from their profile.
        </p>
      ) : (
        <>
          {total > members.length && (
            <p className="crm-muted">
              Showing the first {members.length.toLocaleString()} of {total.toLocaleString()}{' '}
              members, by last name.
            </p>
          )}
          <ul className="contact-list-members" aria-label={`Members of ${list.name}`}>
            {members.map((member) => {
              const name = fullNameOf(member);
              return (
                <li key={member.userId} className="contact-list-member">
                  <span>
                    <Link to={customerProfilePath(member.rosterId)}>{name}</Link>
                    {member.email && <span className="crm-muted"> {member.email}</span>}
                  </span>
                  <button
                    type="button"
                    className="button button-secondary button-small"
                    aria-label={`Remove ${name} from ${list.name}`}
                    disabled={removeMember.isPending}
                    onClick={() => void remove(member.userId, name)}
                  >
                    Remove
                  </button>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}
