import { useReducer, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { latestStartDate } from '@platform/schema/payments/charge-flow.rules';
import { chargeFlowMessages } from '@platform/schema/payments/charge-flow.rules';
import { formatMoney, parseMoneyInput } from '@platform/schema/payments/money';
import { orgFormat } from '@platform/schema/organizations/org-format';
import type { ChargeContext } from '@platform/schema/payments/charge.zod';
import { ChargeLines } from '../../../components/charge-lines.tsx';
import { LoadFailure } from '../../../components/load-failure.tsx';
import { NoProcessorNotice } from '../../../components/no-processor-notice.tsx';
import { Modal } from '../../../components/modal.tsx';
import { SwitchField } from '../../../components/form-fields.tsx';
import { useToast } from '../../../components/toast/toast-context.ts';
import { ApiError } from '../../../lib/api.ts';
import { useSignedInUser } from '../../../lib/current-user.ts';
import { failureText } from '../../../lib/request-failure.ts';
import { addCard, getChargeContext, runCharge, totalCharge } from '../api/charges.ts';
import {
  chargeFlowReducer,
  continueBlocker,
  initialChargeFlow,
  punchCardDisabled,
  takesPrice,
} from '../charge-flow.ts';
import { cardLabel, CouponSelect, ProductSelect, StartChoice } from './offer-fields.tsx';
import { NewCardForm } from './new-card-form.tsx';
import '../products.css';

/** Shared with the invitation's product part: the same products, coupons and today. */
export const chargeContextKey = (rosterId: string) => ['charge-context', rosterId] as const;

/**
 * The modal 'Charge product or subscription' (spec §2, §4; issue 15): choose a product and a
 * card, Continue totals the order on the server, Run charge charges it — once, however often
 * it is pressed (the server keeps the totaled invoice and charges it under one key).
 */
export function ChargeDialog({
  rosterId,
  open,
  onOpenChange,
}: {
  rosterId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const context = useQuery({
    queryKey: chargeContextKey(rosterId),
    queryFn: ({ signal }) => getChargeContext(rosterId, signal),
    enabled: open,
  });
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Charge product or subscription"
      description={context.data ? `For ${context.data.customer.name}` : undefined}
    >
      {context.isPending ? (
        <p role="status" className="packages-muted">
          Loading products and cards…
        </p>
      ) : context.isError ? (
        <LoadFailure
          error={context.error}
          what={'Charging'}
          onRetry={() => void context.refetch()}
        />
      ) : (
        <ChargeFlow
          context={context.data}
          rosterId={rosterId}
          onClose={() => onOpenChange(false)}
        />
      )}
    </Modal>
  );
}

function ChargeFlow({
  context,
  rosterId,
  onClose,
}: {
  context: ChargeContext;
  rosterId: string;
  onClose: () => void;
}) {
  const user = useSignedInUser();
  const format = orgFormat(user.org?.timezone);
  const toast = useToast();
  const queryClient = useQueryClient();
  const [state, dispatch] = useReducer(chargeFlowReducer, initialChargeFlow);
  const [addingCard, setAddingCard] = useState(context.paymentMethods.length === 0);
  const [busy, setBusy] = useState<'total' | 'run' | null>(null);
  const money = (minor: number) => formatMoney(minor, context.currency);

  const product = context.products.find((p) => p.id === state.selectedProductId) ?? null;
  const priceMinor = product && takesPrice(product) ? parseMoneyInput(state.price) : null;
  const blocker = continueBlocker(state, product, context.today, priceMinor);
  const coupons = context.coupons.filter(
    (c) =>
      product && (c.appliesToProductIds.length === 0 || c.appliesToProductIds.includes(product.id)),
  );
  const latest = product ? latestStartDate(product.schedule, context.today) : null;
  const card = context.paymentMethods.find((c) => c.id === state.paymentMethodId);

  async function onContinue(event: FormEvent) {
    event.preventDefault();
    if (blocker || !product) return;
    setBusy('total');
    try {
      const invoice = await totalCharge({
        rosterId,
        productId: product.id,
        paymentMethodId: state.paymentMethodId,
        couponId: state.coupon,
        startDate: state.startDate || null,
        priceMinor,
        prorationMode: state.prorationMode,
        issuePunchCard: state.issuePunchCard,
      });
      dispatch({ type: 'totaled', invoice });
    } catch (error) {
      dispatch({ type: 'total-failed', message: failureText(error, 'Totaling the order') });
    } finally {
      setBusy(null);
    }
  }

  async function onRun() {
    if (!state.totaledInvoice || busy) return;
    setBusy('run');
    try {
      const result = await runCharge(state.totaledInvoice.invoiceId);
      dispatch({
        type: 'ran',
        result,
        invalidMessage: result.valid
          ? ''
          : result.inProgress
            ? result.message
            : `${chargeFlowMessages.chargeInvalid} ${result.message}`,
      });
      if (result.valid) {
        toast.success(
          result.recurring
            ? chargeFlowMessages.subscriptionCreated
            : chargeFlowMessages.paymentProcessed,
        );
      }
    } catch (error) {
      dispatch({
        type: 'run-failed',
        message:
          error instanceof ApiError && error.status < 500
            ? `${chargeFlowMessages.chargeInvalid} ${error.message}`
            : chargeFlowMessages.chargeFailed,
      });
    } finally {
      setBusy(null);
    }
  }

  if (context.processor === 'none') {
    return (
      <div className="charge-flow">
        <NoProcessorNotice onClose={onClose} />
      </div>
    );
  }

  if (context.products.length === 0) {
    return (
      <div className="charge-flow">
        <p>This organisation has no products to charge yet. Create one under Products.</p>
        <div className="button-row">
          <button type="button" className="button" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    );
  }

  if (state.currentStep === 'completed' && state.runResult?.valid) {
    const totals = state.runResult.totals;
    return (
      <div className="charge-flow" aria-live="polite">
        <p className="charge-done" role="status">
          {state.runResult.recurring
            ? chargeFlowMessages.subscriptionCreated
            : chargeFlowMessages.paymentProcessed}
        </p>
        <p>
          {money(totals.total)} charged{card ? ` to ${card.brand} •••• ${card.last4}` : ''}.
          {totals.nextBillingDate &&
            ` Next charge ${money(totals.recurringFinalAmount)} on ${format.date(totals.nextBillingDate)}.`}
        </p>
        <div className="button-row">
          <button type="button" className="button" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    );
  }

  if (state.currentStep === 'order-summary' && state.totaledInvoice) {
    const { totals } = state.totaledInvoice;
    return (
      <div className="charge-flow">
        <h3 className="charge-step">Order summary</h3>
        <ChargeLines caption="Order summary" captionHidden lines={totals.lineItems} money={money} />
        <dl className="charge-totals">
          <dt>Subtotal</dt>
          <dd>{money(totals.subtotal)}</dd>
          {totals.couponDiscount > 0 && (
            <>
              <dt>Discount</dt>
              <dd>−{money(totals.couponDiscount)}</dd>
            </>
          )}
          <dt>Total charged now</dt>
          <dd className="charge-total">{money(totals.total)}</dd>
          {totals.nextBillingDate && (
            <>
              <dt>Next charge</dt>
              <dd>
                {money(totals.recurringFinalAmount)} on {format.date(totals.nextBillingDate)}
              </dd>
            </>
          )}
          {card && (
            <>
              <dt>Card</dt>
              <dd>{cardLabel(card)}</dd>
            </>
          )}
        </dl>
        {context.processor === 'sandbox' && (
          <p className="packages-muted">Sandbox: no real money moves.</p>
        )}
        {state.errorMessage && (
          <p className="form-error" role="alert">
            {state.errorMessage}
          </p>
        )}
        <div className="button-row">
          <button
            type="button"
            className="button"
            onClick={() => void onRun()}
            disabled={busy !== null}
            aria-busy={busy === 'run' || undefined}
          >
            {busy === 'run' ? 'Charging…' : 'Run charge'}
          </button>
          <button
            type="button"
            className="button button-secondary"
            onClick={() => dispatch({ type: 'back' })}
            disabled={busy !== null}
          >
            Back
          </button>
        </div>
      </div>
    );
  }

  return (
    <form className="charge-flow" onSubmit={(event) => void onContinue(event)} noValidate>
      <ProductSelect
        id="charge-product"
        products={context.products}
        value={state.selectedProductId}
        emptyLabel="Choose a product"
        money={money}
        onChange={(productId) => dispatch({ type: 'choose-product', productId })}
      />
      {product && takesPrice(product) && (
        <div className="field">
          <label htmlFor="charge-price">Price ({context.currency})</label>
          <input
            id="charge-price"
            inputMode="decimal"
            value={state.price}
            onChange={(event) => dispatch({ type: 'set-price', price: event.target.value })}
          />
        </div>
      )}
      {product && product.startupFeeMinor > 0 && (
        <p className="packages-muted">
          {state.startupFee
            ? `Includes the start-up fee of ${money(product.startupFeeMinor)}.`
            : 'No start-up fee with a delayed start.'}
        </p>
      )}
      <fieldset className="product-choice">
        <legend>Payment method</legend>
        {context.paymentMethods.map((c) => (
          <label key={c.id}>
            <input
              type="radio"
              name="charge-card"
              checked={state.paymentMethodId === c.id}
              onChange={() => dispatch({ type: 'choose-payment-method', paymentMethodId: c.id })}
            />{' '}
            {cardLabel(c)}
          </label>
        ))}
        {context.paymentMethods.length === 0 && !addingCard && (
          <p className="packages-muted">No card on file.</p>
        )}
        {addingCard ? (
          <NewCardForm
            processor={context.processor}
            save={(input) => addCard(rosterId, 'card' in input ? input.card : input)}
            onSaved={(saved) => {
              queryClient.setQueryData<ChargeContext>(chargeContextKey(rosterId), (old) =>
                old ? { ...old, paymentMethods: [saved, ...old.paymentMethods] } : old,
              );
              dispatch({ type: 'card-created', paymentMethodId: saved.id });
              setAddingCard(false);
            }}
            onCancel={() => setAddingCard(false)}
          />
        ) : (
          <button
            type="button"
            className="button button-secondary"
            onClick={() => setAddingCard(true)}
          >
            Add a card
          </button>
        )}
      </fieldset>
      {product && coupons.length > 0 && (
        <CouponSelect
          id="charge-coupon"
          coupons={coupons}
          value={state.coupon}
          onChange={(couponId) => dispatch({ type: 'set-coupon', couponId })}
        />
      )}
      {product && latest && (
        <StartChoice
          id="charge-start"
          today={context.today}
          latest={latest}
          delayed={state.startDate !== ''}
          startDate={state.startDate}
          onNow={() => dispatch({ type: 'set-start-date', startDate: '' })}
          onDate={(startDate) => dispatch({ type: 'set-start-date', startDate })}
        />
      )}
      {product?.unifiedBillingConfig.enabled && (
        <fieldset className="product-choice">
          <legend>
            Until the billing day (the {product.unifiedBillingConfig.billingDayOfMonth}.)
          </legend>
          <label>
            <input
              type="radio"
              name="charge-proration"
              checked={state.prorationMode === 'charge-prorated'}
              onChange={() => dispatch({ type: 'set-proration', prorationMode: 'charge-prorated' })}
            />{' '}
            Charge the days until then now
          </label>
          <label>
            <input
              type="radio"
              name="charge-proration"
              checked={state.prorationMode === 'delayed-billing'}
              onChange={() => dispatch({ type: 'set-proration', prorationMode: 'delayed-billing' })}
            />{' '}
            Charge nothing now; first charge on the billing day
          </label>
        </fieldset>
      )}
      {product && (
        <SwitchField
          label="Issue punch card credits"
          checked={state.issuePunchCard}
          disabled={
            punchCardDisabled(product) || product.punchCardConfiguration.groups.length === 0
          }
          onChange={(event) =>
            dispatch({ type: 'set-punch-card', issuePunchCard: event.target.checked })
          }
          hint={
            punchCardDisabled(product)
              ? 'Not for recurring products.'
              : product.punchCardConfiguration.groups.length === 0
                ? 'This product has no punch-card groups.'
                : undefined
          }
        />
      )}
      {blocker && state.selectedProductId && state.paymentMethodId && (
        <p className="field-error" id="charge-blocker">
          {blocker}
        </p>
      )}
      {state.errorMessage && (
        <p className="form-error" role="alert">
          {state.errorMessage}
        </p>
      )}
      <div className="button-row">
        <button
          type="submit"
          className="button"
          disabled={blocker !== null || busy !== null}
          aria-busy={busy === 'total' || undefined}
        >
          {busy === 'total' ? 'Totaling…' : 'Continue'}
        </button>
        <button type="button" className="button button-secondary" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
