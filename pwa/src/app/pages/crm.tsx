import { useState, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { CustomerPicker } from '../../features/crm/components/customer-picker.tsx';
import type { CrmCustomer } from '../../features/crm/crm-customer.ts';
import { CrmPage } from '../../features/crm/pages/crm-page.tsx';
import { CrmRedirectPage } from '../../features/crm/pages/crm-redirect-page.tsx';
import { CustomerProfilePage } from '../../features/crm/pages/customer-profile-page.tsx';
import { ManageChildrenDialog } from '../../features/families/components/manage-children-dialog.tsx';
import { ManageGuardiansDialog } from '../../features/families/components/manage-guardians-dialog.tsx';
import { ChargeDialog } from '../../features/products/components/charge-dialog.tsx';
import { InviteProductPart } from '../../features/products/components/invite-product-part.tsx';
import { PendingInvites } from '../../features/products/components/pending-invites.tsx';
import { CustomerCredits } from '../../features/products/components/customer-credits.tsx';
import type { CurrentUser } from '@platform/schema/me/me.zod';
import { useSignedInUser } from '../../lib/current-user.ts';
import { useOnlineStatus } from '../../lib/online-status.ts';
import { NotFoundPage } from '../../features/shell/components/not-found-page.tsx';

/*
 * The CRM with the family modals composed in (issue 7 'Families on the customer profile'):
 * features never import each other, so the customer is handed to features/families here.
 */

const subjectOf = (customer: CrmCustomer) => ({
  id: customer.userId,
  name: customer.name,
  email: customer.email,
});

/** /dashboard/crm: the roster; after adding a customer, 'Manage child accounts' is one click. */
export function Crm() {
  const [childrenOf, setChildrenOf] = useState<CrmCustomer | null>(null);
  const user = useSignedInUser();
  // Before the customer exists the products come from the catalogue (claim manage-products).
  const invites = sells(user) && user.claims.includes('manage-products');
  return (
    <>
      <CrmPage
        customerAction={{ label: 'Manage child accounts', run: setChildrenOf }}
        {...(invites
          ? {
              productPart: (report) => <InviteProductPart rosterId={null} report={report} />,
            }
          : {})}
        {...(sells(user) ? { pendingInvites: <PendingInvites rosterId={null} /> } : {})}
      />
      {childrenOf && (
        <ManageChildrenDialog
          subject={subjectOf(childrenOf)}
          open
          onOpenChange={(open) => !open && setChildrenOf(null)}
        />
      )}
    </>
  );
}

/** /dashboard/crm/customers/:rosterId */
export function CrmCustomerProfile() {
  const { rosterId = '' } = useParams();
  const user = useSignedInUser();
  return (
    <CustomerProfilePage
      // A new customer is a new page: no state of the previous one carries over.
      key={rosterId}
      rosterId={rosterId}
      notFound={<NotFoundPage />}
      familyActions={(customer, onChanged) => (
        <CustomerFamilyActions customer={customer} onChanged={onChanged} />
      )}
      chargeAction={(customer) => <ChargeCustomer customer={customer} />}
      {...(sells(user)
        ? {
            productPart: (customer: CrmCustomer) => (report) => (
              <InviteProductPart rosterId={customer.rosterId} report={report} />
            ),
            pendingInvites: (customer: CrmCustomer) => (
              <PendingInvites rosterId={customer.rosterId} />
            ),
            credits: (customer: CrmCustomer) =>
              user.org && <CustomerCredits orgId={user.org.id} customerUserId={customer.userId} />,
          }
        : {})}
    />
  );
}

/** /dashboard/crm/redirect?rosterId|userId */
export function CrmRedirect() {
  return <CrmRedirectPage notFound={<NotFoundPage />} />;
}

function CustomerFamilyActions({
  customer,
  onChanged,
}: {
  customer: CrmCustomer;
  onChanged: () => void;
}): ReactNode {
  const [open, setOpen] = useState<'guardians' | 'children' | null>(null);
  const online = useOnlineStatus();
  const onOpenChange = (which: 'guardians' | 'children') => (next: boolean) =>
    setOpen(next ? which : null);
  return (
    <div className="button-row">
      <button
        type="button"
        className="button button-secondary"
        onClick={() => setOpen('guardians')}
      >
        Manage parent/guardian accounts
      </button>
      <button type="button" className="button button-secondary" onClick={() => setOpen('children')}>
        Manage child accounts
      </button>
      {open === 'guardians' && (
        <ManageGuardiansDialog
          subject={subjectOf(customer)}
          open
          onOpenChange={onOpenChange('guardians')}
          onChanged={onChanged}
          chooseExisting={(add) => (
            <CustomerPicker
              label="Customer"
              value={null}
              // Nobody is their own guardian (the server refuses it too).
              exclude={[customer.userId]}
              // The dialog opens on its first choice, not on the form below it, whose email
              // would otherwise say it is required the moment the picker is opened.
              autoFocus
              // An account without an email cannot be a guardian: the server says so.
              onChange={(row) =>
                add({ email: row.email ?? '', firstName: row.firstName, lastName: row.lastName })
              }
              disabled={!online}
            />
          )}
        />
      )}
      {open === 'children' && (
        <ManageChildrenDialog
          subject={subjectOf(customer)}
          open
          onOpenChange={onOpenChange('children')}
          onChanged={onChanged}
        />
      )}
    </div>
  );
}

/** Staff who sell (claim manage-point-of-sale) charge, invite to products and see invitations. */
const sells = (user: CurrentUser) => user.claims.includes('manage-point-of-sale');

/** 'Charge product or subscription' for staff who sell (claim manage-point-of-sale). */
function ChargeCustomer({ customer }: { customer: CrmCustomer }): ReactNode {
  const user = useSignedInUser();
  const online = useOnlineStatus();
  const [open, setOpen] = useState(false);
  if (!sells(user)) return null;
  return (
    <>
      <button
        type="button"
        className="button"
        onClick={() => setOpen(true)}
        disabled={!online}
        title={online ? undefined : 'Charging needs a connection.'}
      >
        Charge
      </button>
      {open && <ChargeDialog rosterId={customer.rosterId} open onOpenChange={setOpen} />}
    </>
  );
}
