import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { CustomerNote, CustomerProfile } from '@platform/schema/crm/crm.zod';
import type { CustomerNoteDoc } from '@platform/schema/crm/customer-note.zod';
import { PageLoading } from '../../../components/page-loading.tsx';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { addCustomerNote, setCustomerTags } from '../api/customer-details.ts';
import { AddCustomerDialog } from '../components/add-customer-dialog.tsx';
import { CustomerActivity } from '../components/customer-activity.tsx';
import { CustomerFamily } from '../components/customer-family.tsx';
import { CustomerMetrics } from '../components/customer-metrics.tsx';
import { CustomerNotes } from '../components/customer-notes.tsx';
import { CustomerPhone } from '../components/customer-phone.tsx';
import { CustomerTags } from '../components/customer-tags.tsx';
import { fullNameOf, type CrmCustomer } from '../crm-customer.ts';
import { useCustomerProfile } from '../hooks/use-customer-profile.ts';
import { useLocalCustomer } from '../hooks/use-local-customer.ts';
import '../crm.css';

type Props = {
  rosterId: string;
  /** 'Manage parent/guardian accounts' and 'Manage child accounts' (features/families, via app/). */
  familyActions: (customer: CrmCustomer, onChanged: () => void) => ReactNode;
  /** Shown for an id this organisation does not have (never another organisation's data). */
  notFound: ReactNode;
};

const noteOf = (doc: CustomerNoteDoc): CustomerNote => ({
  id: doc.id,
  body: doc.body,
  authorId: doc.authorId,
  authorName: doc.authorName,
  createdAt: doc.createdAt,
});

/** The device's notes and the server's answer, one list by id, newest first. */
function mergedNotes(local: CustomerNoteDoc[], server: CustomerNote[]): CustomerNote[] {
  const byId = new Map(server.map((note) => [note.id, note]));
  for (const doc of local) byId.set(doc.id, noteOf(doc));
  return [...byId.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/**
 * /dashboard/crm/customers/:rosterId: contact details, family, tags, notes, metrics and
 * activity. Phone, tags and notes are written on the device (the replicated roster item and
 * notes) and sent when the network allows, so the front desk edits them offline too; offline,
 * the page shows what the device holds.
 */
export function CustomerProfilePage({ rosterId, familyActions, notFound }: Props) {
  const { state, reload, update } = useCustomerProfile(rosterId);
  const local = useLocalCustomer(rosterId);
  const online = useOnlineStatus();
  const [inviting, setInviting] = useState(false);

  if (state.status === 'loading') return <PageLoading label="Loading customer…" />;
  if (state.status === 'not-found') return notFound;
  if (state.status === 'failed')
    return (
      <section className="page">
        <h1>Customer profile</h1>
        <p className="form-error" role="alert">
          We could not load this customer. Please try again.
        </p>
      </section>
    );
  const profile: CustomerProfile | null = state.status === 'ready' ? state.profile : null;
  const { item } = local;
  if (!profile && !item)
    return local.status === 'loading' ? <PageLoading label="Loading customer…" /> : notFound;

  const contact = profile?.contact ?? {
    id: item!.athlete.id,
    firstName: item!.athlete.firstName,
    lastName: item!.athlete.lastName,
    email: item!.athlete.email,
    phone: item!.phone,
  };
  const name = fullNameOf(contact);
  const customer: CrmCustomer = { rosterId, userId: contact.id, name, email: contact.email };
  // The device's copy is the freshest: it holds edits not yet sent and hears of others' live.
  const tags = item?.tags ?? profile?.tags ?? [];
  const phone = item ? item.phone : contact.phone;
  const notes = mergedNotes(local.notes, profile?.notes ?? []);
  // Before this customer reached the device (a large roster still arriving), online edits
  // go straight to the server.
  const saveTags = item
    ? local.saveTags
    : async (next: string[]) => {
        const saved = await setCustomerTags(rosterId, next);
        update((p) => ({ ...p, tags: saved.tags }));
      };
  const addNote = item
    ? local.addNote
    : async (body: string) => {
        const note = await addCustomerNote(rosterId, body);
        update((p) => ({ ...p, notes: [note, ...p.notes] }));
      };

  return (
    <section className="page crm crm-profile">
      <p>
        <Link to="/dashboard/crm">← Customers</Link>
      </p>
      <div className="crm-heading">
        <h1>{name}</h1>
        {profile && contact.email && !profile.externalPayments && (
          <button
            type="button"
            className="button button-secondary"
            onClick={() => setInviting(true)}
          >
            Invite customer to product
          </button>
        )}
      </div>
      {!profile && (
        <p className="crm-offline" role="status">
          You are offline: showing the details saved on this device. Changes are sent when the
          network is back.
        </p>
      )}
      <section className="crm-card" aria-labelledby="crm-contact-heading">
        <h2 id="crm-contact-heading">Contact details</h2>
        <dl className="crm-details">
          <dt>Email</dt>
          <dd>{contact.email ?? '—'}</dd>
          <dt>Phone</dt>
          <dd>
            <CustomerPhone phone={phone} onSave={local.savePhone} canSave={item !== null} />
          </dd>
          {profile && (
            <>
              <dt>Account</dt>
              <dd>{profile.invitationPending ? 'Invitation pending' : 'Active'}</dd>
              <dt>Payments</dt>
              <dd>
                {profile.externalPayments
                  ? 'Outside the platform — a customer record: keep notes and metrics here.'
                  : 'Through the platform'}
              </dd>
            </>
          )}
        </dl>
      </section>
      {profile && <CustomerFamily profile={profile} actions={familyActions(customer, reload)} />}
      <CustomerTags tags={tags} onSave={saveTags} canSave={item !== null || online} />
      <CustomerNotes notes={notes} onAdd={addNote} canSave={item !== null || online} />
      {profile ? (
        <>
          <CustomerMetrics
            rosterId={rosterId}
            metrics={profile.metrics}
            online={online}
            onAdded={(metric) => {
              update((p) => ({ ...p, metrics: [metric, ...p.metrics] }));
              reload();
            }}
          />
          <CustomerActivity activity={profile.activity} />
        </>
      ) : (
        <p className="crm-muted">Family, metrics and activity show when you are back online.</p>
      )}
      {inviting && contact.email && (
        <AddCustomerDialog
          open
          onOpenChange={setInviting}
          preselected={{
            email: contact.email,
            firstName: contact.firstName,
            lastName: contact.lastName,
            phone,
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
