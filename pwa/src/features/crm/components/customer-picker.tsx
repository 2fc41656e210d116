import { useId, useState } from 'react';
import type { RosterRow } from '@platform/schema/crm/crm.zod';
import { Modal } from '../../../components/modal.tsx';
import { fullNameOf } from '../crm-customer.ts';
import { CustomerPickerList } from './customer-picker-list.tsx';

export type CustomerPickerProps = {
  label: string;
  value: RosterRow | null;
  /** May return a promise: the chosen row spins and the modal stays open until it settles. */
  onChange: (customer: RosterRow) => void | Promise<void>;
  disabled?: boolean;
  /** People never offered, by user id (the person whose guardian is being chosen). */
  exclude?: readonly string[];
  /** Where a dialog's focus lands when it opens (modal.tsx `data-autofocus`). */
  autoFocus?: boolean;
};

/** spec §2 Customer picker: a select-like button that opens the 'Select a customer' modal. */
export function CustomerPicker({
  label,
  value,
  onChange,
  disabled,
  exclude,
  autoFocus,
}: CustomerPickerProps) {
  const [open, setOpen] = useState(false);
  const labelId = useId();
  const choose = async (customer: RosterRow) => {
    await onChange(customer);
    setOpen(false);
  };
  return (
    <div className="field">
      <span id={labelId} className="crm-picker-label">
        {label}
      </span>
      <button
        type="button"
        className="crm-picker-select"
        aria-haspopup="dialog"
        // Offline the button is disabled: the dialog then opens on its first field instead.
        data-autofocus={autoFocus && !disabled ? '' : undefined}
        aria-labelledby={`${labelId} ${labelId}-value`}
        disabled={disabled}
        onClick={() => setOpen(true)}
      >
        <span id={`${labelId}-value`}>{value ? fullNameOf(value) : 'Select a customer'}</span>
        <span aria-hidden="true"> ▾</span>
      </button>
      <Modal open={open} onOpenChange={setOpen} title="Select a customer">
        <CustomerPickerList onSelect={choose} exclude={exclude} />
      </Modal>
    </div>
  );
}
