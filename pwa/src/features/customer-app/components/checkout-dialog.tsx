import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { chargeFlowMessages } from '@platform/schema/payments/charge-flow.rules';
import { formatMoney } from '@platform/schema/payments/money';
import type { ProductDoc } from '@platform/schema/payments/product-doc.zod';
import { Link } from 'react-router';
import { Modal } from '../../../components/modal.tsx';
import { ChargeLines } from '../../../components/charge-lines.tsx';
import { NoProcessorNotice } from '../../../components/no-processor-notice.tsx';
import { TextField } from '../../../components/form-fields.tsx';
import { useToast } from '../../../components/toast/toast-context.ts';
import { ApiError } from '../../../lib/api.ts';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { useOrgFormat } from '../../../lib/use-org-format.ts';
import { failureText } from '../../../lib/request-failure.ts';
import { buy, quote } from '../api/shop.ts';
import { CardChoice, PayFooter, useCardChoice, type PayWith } from './card-choice.tsx';

/**
 * Checkout in the customer's app (issue 15): the order's figures from the server (a coupon code
 * applied), a card of theirs or a new one, Pay. The checkout names its order when it opens, so a
 * double click or a retry after a lost answer is the same order, charged once.
 */
export function CheckoutDialog({
  orgId,
  product,
  purchaseHistoryPath,
  onClose,
}: {
  orgId: string;
  product: ProductDoc;
  purchaseHistoryPath: string;
  onClose: () => void;
}) {
  const toast = useToast();
  const online = useOnlineStatus();
  const format = useOrgFormat();
  const [checkoutId] = useState(() => crypto.randomUUID());
  const [codeInput, setCodeInput] = useState('');
  const [couponCode, setCouponCode] = useState<string | null>(null);
  const prices = product.variablePricing.enabled
    ? product.variablePricing.prices.map((p) => p.price)
    : [];
  const [priceMinor, setPriceMinor] = useState<number | null>(prices[0] ?? null);
  const [paying, setPaying] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [paid, setPaid] = useState<{ recurring: boolean } | null>(null);

  const order = { orgId, productId: product.id, couponCode, priceMinor };
  const figures = useQuery({
    queryKey: ['shop-quote', checkoutId, couponCode, priceMinor],
    queryFn: ({ signal }) => quote(order, signal),
    enabled: online,
    retry: false,
  });
  const cards = figures.data?.paymentMethods ?? [];
  // Without a processor (decision 0061) the checkout says so instead of asking for a card.
  const noProcessor = figures.data?.processor === 'none';
  const money = (minor: number) => formatMoney(minor, figures.data?.currency ?? 'USD');

  const card = useCardChoice('new', (payWith) => void pay(payWith));
  // With Stripe a new card is entered in the card-entry frame (decision 0063), whose own button
  // pays with the PaymentMethod it made; the form's Pay button is for a saved card then.
  const stripeEntry = figures.data?.processor === 'stripe' && card.choice === 'new';

  async function pay(payWith: PayWith) {
    if (paying || paid) return;
    setFailure(null);
    setPaying(true);
    try {
      const result = await buy({ ...order, checkoutId, ...payWith });
      if (result.valid) {
        setPaid({ recurring: result.recurring });
        toast.success(
          result.recurring
            ? chargeFlowMessages.subscriptionCreated
            : chargeFlowMessages.paymentProcessed,
        );
      } else {
        setFailure(`${chargeFlowMessages.chargeInvalid} ${result.message}`);
      }
    } catch (error) {
      setFailure(
        error instanceof ApiError && error.status < 500
          ? `${chargeFlowMessages.chargeInvalid} ${error.message}`
          : !online
            ? failureText(error, 'Paying')
            : chargeFlowMessages.chargeFailed,
      );
    } finally {
      setPaying(false);
    }
  }

  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={`Buy ${product.name}`}>
      {paid ? (
        <div className="checkout" aria-live="polite">
          <p className="charge-done" role="status">
            {paid.recurring
              ? chargeFlowMessages.subscriptionCreated
              : chargeFlowMessages.paymentProcessed}
          </p>
          <p>
            It is in your <Link to={purchaseHistoryPath}>purchase history</Link>, also without a
            connection.
          </p>
          <div className="button-row">
            <button type="button" className="button" onClick={onClose}>
              Close
            </button>
          </div>
        </div>
      ) : (
        <form className="checkout" onSubmit={card.submit} noValidate>
          {!online && (
            <p className="form-error" role="alert">
              You are offline. Paying needs a connection.
            </p>
          )}
          {prices.length > 0 && (
            <div className="field">
              <label htmlFor="checkout-price">Price</label>
              <select
                id="checkout-price"
                value={priceMinor ?? ''}
                onChange={(event) => setPriceMinor(Number(event.target.value))}
              >
                {prices.map((price) => (
                  <option key={price} value={price}>
                    {money(price)}
                  </option>
                ))}
              </select>
            </div>
          )}
          <div className="checkout-coupon">
            <TextField
              label="Coupon code (optional)"
              value={codeInput}
              autoComplete="off"
              onChange={(event) => setCodeInput(event.target.value)}
            />
            <button
              type="button"
              className="button button-secondary"
              onClick={() => setCouponCode(codeInput.trim() || null)}
              disabled={!online}
            >
              Apply
            </button>
          </div>
          {figures.isPending && online ? (
            <p role="status" className="field-hint">
              Working out the total…
            </p>
          ) : figures.isError ? (
            <p className="form-error" role="alert">
              {failureText(figures.error, 'Working out the total')}
            </p>
          ) : figures.data ? (
            <>
              <ChargeLines
                caption="Your order"
                captionHidden
                lines={figures.data.totals.lineItems}
                money={money}
              />
              <dl className="charge-totals">
                <dt>Total today</dt>
                <dd className="charge-total">{money(figures.data.totals.total)}</dd>
                {figures.data.totals.nextBillingDate && (
                  <>
                    <dt>Then</dt>
                    <dd>
                      {money(figures.data.totals.recurringFinalAmount)} from{' '}
                      {format.date(figures.data.totals.nextBillingDate)}
                    </dd>
                  </>
                )}
              </dl>
              {figures.data.couponName && (
                <p className="field-hint">Coupon {figures.data.couponName} applied.</p>
              )}
            </>
          ) : null}
          {noProcessor ? (
            <NoProcessorNotice detail="Buying here is not possible for now: nothing can be charged." />
          ) : (
            <CardChoice
              name="checkout-card"
              cards={cards}
              processor={figures.data?.processor}
              state={card}
              onStripePaymentMethod={(id) => void pay({ processorPaymentMethodId: id })}
            />
          )}
          <PayFooter
            failure={failure}
            paying={paying}
            stripeEntry={stripeEntry}
            disabled={!online || !figures.data || noProcessor}
            label={figures.data ? `Pay ${money(figures.data.totals.total)}` : 'Pay'}
            cancelLabel="Cancel"
            onCancel={onClose}
          />
        </form>
      )}
    </Modal>
  );
}
