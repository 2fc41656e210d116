import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { CustomerProfile } from '@platform/schema/crm/crm.zod';
import { PageLoading } from '../../../components/page-loading.tsx';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { AddCustomerDialog } from '../components/add-customer-dialog.tsx';
import { CustomerActivity } from '../components/customer-activity.tsx';
import { CustomerContactLists } from '../components/customer-contact-lists.tsx';
import { CustomerFamily } from '../components/customer-family.tsx';
import { CustomerMetrics } from '../components/customer-metrics.tsx';
import { CustomerNotes } from '../components/customer-notes.tsx';
import { CustomerPhone } from '../components/customer-phone.tsx';
import { CustomerTags } from '../components/customer-tags.tsx';
import { ResendInvitationButton } from '../components/resend-invitation-button.tsx';
import { fullNameOf, type CrmCustomer } from '../crm-customer.ts';
import { useCustomerProfile } from '../hooks/use-customer-profile.ts';
import { useCrmTags } from '../hooks/use-crm-tags.ts';
import { useLocalCustomer } from '../hooks/use-local-customer.ts';
import type { ProductPart } from '../product-part.ts';
import '../crm.css';

type Props = {
  rosterId: string;
  /** 'Manage parent/guardian accounts' and 'Manage child accounts' (features/families, via app/). */
  familyActions: (customer: CrmCustomer, onChanged: () => void) => ReactNode;
  /** 'Charge product or subscription' (features/products, via app/), for staff who sell. */
  chargeAction?: (customer: CrmCustomer) => ReactNode;
  /** The Invite dialog's product part (features/products, via app/), for staff who sell. */
  productPart?: (customer: CrmCustomer) => ProductPart;
  /** The customer's open invitations to products (features/products, via app/). */
  pendingInvites?: (customer: CrmCustomer) => ReactNode;
  /** The customer's punch-card credits (features/products, via app/), from the device. */
  credits?: (customer: CrmCustomer) => ReactNode;
  /** Shown for an id this organisation does not have (never another organisation's data). */
  notFound: ReactNode;
};

/**
 * /dashboard/crm/customers/:rosterId: contact details, family, tags, notes, metrics and
 * activity. Contact, phone, tags and notes are the replicated roster item and notes on this
 * device — read there and written there, online or not, so another device's change shows
 * at once (DESIGN.md How data flows 6). Family, metrics and activity are the server's and need
 * a connection.
 */
export function CustomerProfilePage(props: Props) {
  const { rosterId, familyActions, chargeAction, notFound } = props;
  const { state, reload } = useCustomerProfile(rosterId);
  const local = useLocalCustomer(rosterId);
  const online = useOnlineStatus();
  const [inviting, setInviting] = useState(false);
  const orgTags = useCrmTags(online, local.item?.tags ?? []);

  const { item } = local;
  // Still a page with its heading while the replica answers (axe: page-has-heading-one).
  if (local.status === 'loading' && !item)
    return (
      <section className="page crm crm-profile">
        <h1>Customer</h1>
        <PageLoading label="Loading customer…" />
      </section>
    );
  if (!item) return notFound;
  const profile: CustomerProfile | null = state.status === 'ready' ? state.profile : null;
  const contact = {
    id: item.athlete.id,
    firstName: item.athlete.firstName,
    lastName: item.athlete.lastName,
    email: item.athlete.email,
  };
  const name = fullNameOf(contact);
  const customer: CrmCustomer = { rosterId, userId: contact.id, name, email: contact.email };
  const phone = item.phone;

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
        {profile && !profile.externalPayments && chargeAction?.(customer)}
      </div>
      {!online && (
        <p className="crm-offline" role="status">
          You are offline: changes are saved on this device and sent when the network is back.
        </p>
      )}
      <section className="crm-card" aria-labelledby="crm-contact-heading">
        <h2 id="crm-contact-heading">Contact details</h2>
        <dl className="crm-details">
          <dt>Email</dt>
          <dd>{contact.email ?? '—'}</dd>
          <dt>Phone</dt>
          <dd>
            <CustomerPhone phone={phone} onSave={local.savePhone} canSave />
          </dd>
          {profile && (
            <>
              <dt>Account</dt>
              <dd>
                {profile.invitationPending ? 'Invitation pending' : 'Active'}
                {profile.invitationPending && contact.email && (
                  <ResendInvitationButton rosterId={rosterId} email={contact.email} />
                )}
              </dd>
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
      {profile && !profile.externalPayments && props.pendingInvites?.(customer)}
      {props.credits?.(customer)}
      {profile && <CustomerFamily profile={profile} actions={familyActions(customer, reload)} />}
      <CustomerTags tags={item.tags} onSave={local.saveTags} canSave suggestions={orgTags} />
      <CustomerContactLists userId={contact.id} name={name} online={online} />
      <CustomerNotes notes={local.notes} onAdd={local.addNote} canSave />
      {profile ? (
        <>
          <CustomerMetrics
            rosterId={rosterId}
            metrics={profile.metrics}
            online={online}
            onAdded={() => reload()}
          />
          <CustomerActivity activity={profile.activity} />
        </>
      ) : state.status === 'loading' ? (
        <p className="crm-muted" role="status">
          Loading family, metrics and activity…
        </p>
      ) : state.status === 'failed' ? (
        <p className="form-error" role="alert">
          We could not load this customer’s family, metrics and activity. Please try again.
        </p>
      ) : (
        <p className="crm-muted">Family, metrics and activity show when you are back online.</p>
      )}
      {inviting && contact.email && (
        <AddCustomerDialog
          open
          onOpenChange={setInviting}
          preselected={{
            rosterId,
            userId: contact.id,
            email: contact.email,
            firstName: contact.firstName,
            lastName: contact.lastName,
            phone,
          }}
          {...(props.productPart ? { productPart: props.productPart(customer) } : {})}
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
