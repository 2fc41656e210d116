import { chargeFlowMessages } from '@platform/schema/payments/charge-flow.rules';

/**
 * spec §8 "Missing processor: 'Payment processing not available'" (decision 0061): shown where a
 * card form or a charge would be, when the deployment has no payment processor. In a dialog
 * (`onClose`) it is all there is to do, with Close.
 */
export function NoProcessorNotice({ detail, onClose }: { detail?: string; onClose?: () => void }) {
  return (
    <>
      <div className="form-error" role="alert">
        <p>
          <strong>{chargeFlowMessages.noProcessor}</strong>
        </p>
        <p>
          {detail ?? 'No card can be taken or charged until this platform has a payment processor.'}
        </p>
      </div>
      {onClose && (
        <div className="button-row">
          <button type="button" className="button" onClick={onClose}>
            Close
          </button>
        </div>
      )}
    </>
  );
}
