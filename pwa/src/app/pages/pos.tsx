import { useState } from 'react';
import type { RosterRow } from '@platform/schema/crm/crm.zod';
import { AddCustomerDialog } from '../../features/crm/components/add-customer-dialog.tsx';
import { CustomerPicker } from '../../features/crm/components/customer-picker.tsx';
import { fullNameOf } from '../../features/crm/crm-customer.ts';
import { PosPage, type TillCustomer } from '../../features/products/pages/pos-page.tsx';
import { useOnlineStatus } from '../../lib/online-status.ts';

/*
 * The point of sale with the CRM's customer picker and Add customer composed in (features never
 * import each other).
 */

/** /dashboard/pos */
export function PointOfSale() {
  return (
    <PosPage
      chooseCustomer={(current, onChosen) => (
        <TillCustomerChoice current={current} onChosen={onChosen} />
      )}
    />
  );
}

function TillCustomerChoice({
  current,
  onChosen,
}: {
  current: TillCustomer | null;
  onChosen: (customer: TillCustomer) => void;
}) {
  const online = useOnlineStatus();
  const [row, setRow] = useState<RosterRow | null>(null);
  const [adding, setAdding] = useState(false);
  return (
    <div className="pos-customer">
      <CustomerPicker
        label="Customer"
        value={current && row?.rosterId === current.rosterId ? row : null}
        disabled={!online}
        onChange={(picked) => {
          setRow(picked);
          onChosen({ rosterId: picked.rosterId, name: fullNameOf(picked) });
        }}
      />
      <button
        type="button"
        className="button button-secondary"
        disabled={!online}
        onClick={() => setAdding(true)}
      >
        Add customer
      </button>
      {adding && (
        <AddCustomerDialog
          open
          onOpenChange={setAdding}
          onSent={() => {}}
          customerAction={{
            label: 'Charge this customer',
            run: (customer) => {
              setAdding(false);
              setRow(null);
              onChosen({ rosterId: customer.rosterId, name: customer.name });
            },
          }}
        />
      )}
    </div>
  );
}
