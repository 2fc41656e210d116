import type { CrmCustomer } from '../crm-customer.ts';

/** One more thing staff can do with a customer they just added (app/ composes it in). */
export type CustomerAction = { label: string; run: (customer: CrmCustomer) => void };

type Props = {
  customer: CrmCustomer;
  preselected: boolean;
  onViewProfile: ((customer: CrmCustomer) => void) | undefined;
  customerAction: CustomerAction | undefined;
  onAddAnother: () => void;
  onReloadProfile: (() => void) | undefined;
  onClose: () => void;
};

/**
 * spec §4 Invite dialog, created: with a preselected customer, Reload customer profile and
 * Close; otherwise View customer profile, another action on the customer, Add another
 * customer and Close.
 */
export function PostInviteActions(props: Props) {
  const { customer } = props;
  return (
    <div role="group" aria-label="What next" className="crm-post-invite">
      <p className="form-success" role="status">
        {customer.name} was added to your customers.
      </p>
      <div className="button-row">
        {props.preselected ? (
          <button
            type="button"
            className="button button-secondary"
            onClick={() => (props.onReloadProfile ?? (() => window.location.reload()))()}
          >
            Reload customer profile
          </button>
        ) : (
          <>
            {props.onViewProfile && (
              <button
                type="button"
                className="button button-secondary"
                onClick={() => props.onViewProfile?.(customer)}
              >
                View customer profile
              </button>
            )}
            {props.customerAction && (
              <button
                type="button"
                className="button button-secondary"
                onClick={() => props.customerAction?.run(customer)}
              >
                {props.customerAction.label}
              </button>
            )}
            <button type="button" className="button button-secondary" onClick={props.onAddAnother}>
              Add another customer
            </button>
          </>
        )}
        <button type="button" className="button button-secondary" onClick={props.onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
