import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { CustomerProfile } from '@platform/schema/crm/crm.zod';
import type { RosterItemDoc } from '@platform/schema/roster/roster-item.zod';
import { PageLoading } from '../../../components/page-loading.tsx';
import { useLiveQuery } from '../../../db/use-live-query.ts';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { useAccountSync } from '../../../sync/sync-context.tsx';
import { AddCustomerDialog } from '../components/add-customer-dialog.tsx';
import { CustomerActivity } from '../components/customer-activity.tsx';
import { CustomerFamily } from '../components/customer-family.tsx';
import { CustomerMetrics } from '../components/customer-metrics.tsx';
import { CustomerNotes } from '../components/customer-notes.tsx';
import { CustomerTags } from '../components/customer-tags.tsx';
import { fullNameOf, type CrmCustomer } from '../crm-customer.ts';
import { useCustomerProfile } from '../hooks/use-customer-profile.ts';
import '../crm.css';

type Props = {
  rosterId: string;
  /** 'Manage parent/guardian accounts' and 'Manage child accounts' (features/families, via app/). */
  familyActions: (customer: CrmCustomer, onChanged: () => void) => ReactNode;
  /** Shown for an id this organisation does not have (never another organisation's data). */
  notFound: ReactNode;
};

/**
 * /dashboard/crm/customers/:rosterId: contact details, family, tags, notes, metrics and
 * activity. Offline it shows what the replicated roster holds (contact and tags).
 */
export function CustomerProfilePage({ rosterId, familyActions, notFound }: Props) {
  const { state, reload, update } = useCustomerProfile(rosterId);
  const online = useOnlineStatus();
  const [inviting, setInviting] = useState(false);

  if (state.status === 'loading') return <PageLoading label="Loading customer…" />;
  if (state.status === 'not-found') return notFound;
  if (state.status === 'offline') return <OfflineProfile rosterId={rosterId} notFound={notFound} />;
  if (state.status === 'failed')
    return (
      <section className="page">
        <h1>Customer profile</h1>
        <p className="form-error" role="alert">
          We could not load this customer. Please try again.
        </p>
      </section>
    );

  const { profile } = state;
  const { contact } = profile;
  const name = fullNameOf(contact);
  const customer: CrmCustomer = { rosterId, userId: contact.id, name, email: contact.email };
  const set = (change: Partial<CustomerProfile>) => update((p) => ({ ...p, ...change }));

  return (
    <section className="page crm crm-profile">
      <p>
        <Link to="/dashboard/crm">← Customers</Link>
      </p>
      <div className="crm-heading">
        <h1>{name}</h1>
        {contact.email && (
          <button
            type="button"
            className="button button-secondary"
            onClick={() => setInviting(true)}
          >
            Invite customer to product
          </button>
        )}
      </div>
      <section className="crm-card" aria-labelledby="crm-contact-heading">
        <h2 id="crm-contact-heading">Contact details</h2>
        <dl className="crm-details">
          <dt>Email</dt>
          <dd>{contact.email ?? '—'}</dd>
          <dt>Phone</dt>
          <dd>{contact.phone ?? '—'}</dd>
          <dt>Account</dt>
          <dd>{profile.invitationPending ? 'Invitation pending' : 'Active'}</dd>
        </dl>
      </section>
      <CustomerFamily profile={profile} actions={familyActions(customer, reload)} />
      <CustomerTags
        rosterId={rosterId}
        tags={profile.tags}
        online={online}
        onSaved={(saved) => set({ tags: saved.tags })}
      />
      <CustomerNotes
        rosterId={rosterId}
        notes={profile.notes}
        online={online}
        onAdded={(note) => {
          set({ notes: [note, ...profile.notes] });
          reload();
        }}
      />
      <CustomerMetrics
        rosterId={rosterId}
        metrics={profile.metrics}
        online={online}
        onAdded={(metric) => {
          set({ metrics: [metric, ...profile.metrics] });
          reload();
        }}
      />
      <CustomerActivity activity={profile.activity} />
      {inviting && contact.email && (
        <AddCustomerDialog
          open
          onOpenChange={setInviting}
          preselected={{
            email: contact.email,
            firstName: contact.firstName,
            lastName: contact.lastName,
            phone: contact.phone,
          }}
          onSent={reload}
          onReloadProfile={() => {
            setInviting(false);
            reload();
          }}
        />
      )}
    </section>
  );
}

/** Offline: the roster item this device holds — contact and tags — or not found. */
function OfflineProfile({ rosterId, notFound }: { rosterId: string; notFound: ReactNode }) {
  const { sync } = useAccountSync();
  const roster = useLiveQuery(sync?.db ?? null, 'roster', { selector: { id: rosterId } });
  const item = roster.documents[0] as unknown as RosterItemDoc | undefined;
  if (roster.status === 'loading' && sync) return <PageLoading label="Loading customer…" />;
  if (!item) return notFound;
  return (
    <section className="page crm crm-profile">
      <p>
        <Link to="/dashboard/crm">← Customers</Link>
      </p>
      <h1>{fullNameOf(item.athlete)}</h1>
      <p className="crm-offline" role="status">
        You are offline: showing the details saved on this device.
      </p>
      <section className="crm-card" aria-labelledby="crm-contact-heading">
        <h2 id="crm-contact-heading">Contact details</h2>
        <dl className="crm-details">
          <dt>Email</dt>
          <dd>{item.athlete.email ?? '—'}</dd>
          <dt>Phone</dt>
          <dd>{item.phone ?? '—'}</dd>
          <dt>Tags</dt>
          <dd>{item.tags.length > 0 ? item.tags.join(', ') : '—'}</dd>
        </dl>
      </section>
    </section>
  );
}
