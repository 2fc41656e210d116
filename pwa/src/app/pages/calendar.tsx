import { useState } from 'react';
import type { RosterRow } from '@platform/schema/crm/crm.zod';
import { CustomerPicker } from '../../features/crm/components/customer-picker.tsx';
import { fullNameOf } from '../../features/crm/crm-customer.ts';
import type { PickedCustomer } from '../../features/schedule/components/occurrence-panel.tsx';
import { CalendarPage } from '../../features/schedule/pages/calendar-page.tsx';
import { useOnlineStatus } from '../../lib/online-status.ts';

/*
 * The staff calendar with the CRM's customer picker composed into each roster (features never
 * import each other).
 */

/** /dashboard/calendar */
export function Calendar() {
  return <CalendarPage renderCustomerPicker={(onPicked) => <AddToRoster onPicked={onPicked} />} />;
}

function AddToRoster({ onPicked }: { onPicked: (customer: PickedCustomer) => void }) {
  const online = useOnlineStatus();
  const [row, setRow] = useState<RosterRow | null>(null);
  return (
    <CustomerPicker
      label="Add a customer"
      value={row}
      disabled={!online}
      onChange={(picked) => {
        setRow(null);
        onPicked({ userId: picked.userId, name: fullNameOf(picked) });
      }}
    />
  );
}
