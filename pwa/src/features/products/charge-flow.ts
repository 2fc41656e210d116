import type { CatalogueProduct } from '@platform/schema/payments/catalogue.zod';
import {
  canContinue,
  DEFAULT_PRORATION_MODE,
  punchCardToggle,
  startDateRefusal,
  type ProrationMode,
} from '@platform/schema/payments/charge-flow.rules';
import type { RunChargeResponse, TotalChargeResponse } from '@platform/schema/payments/charge.zod';

/**
 * The charge modal's state (spec §3 Charge flow state) and its moves (spec §4 Charge flow):
 * product-selection → Continue totals the invoice → order-summary → Run charge → completed when
 * the result is valid, else order-summary with the error. Back returns to product-selection;
 * closing resets the flow. Pure, so every move is unit-tested.
 */
export type ChargeStep = 'product-selection' | 'order-summary' | 'completed';

export type ChargeFlowState = {
  currentStep: ChargeStep;
  selectedProductId: string | null;
  paymentMethodId: string | null;
  /** The card added in this flow, so the list can show it chosen. */
  createdPaymentMethodId: string | null;
  /** '' = Immediately on purchase. */
  startDate: string;
  /** Whether the product's start-up fee is charged (never with a delayed start). */
  startupFee: boolean;
  prorationMode: ProrationMode;
  issuePunchCard: boolean;
  /** The chosen coupon's id. */
  coupon: string | null;
  /** The agreed price for variable pricing / requires-consultation, as typed. */
  price: string;
  totaledInvoice: TotalChargeResponse | null;
  runResult: RunChargeResponse | null;
  errorMessage: string | null;
};

export const initialChargeFlow: ChargeFlowState = {
  currentStep: 'product-selection',
  selectedProductId: null,
  paymentMethodId: null,
  createdPaymentMethodId: null,
  startDate: '',
  startupFee: true,
  prorationMode: DEFAULT_PRORATION_MODE,
  issuePunchCard: false,
  coupon: null,
  price: '',
  totaledInvoice: null,
  runResult: null,
  errorMessage: null,
};

export type ChargeFlowAction =
  | { type: 'choose-product'; productId: string | null }
  | { type: 'choose-payment-method'; paymentMethodId: string | null }
  | { type: 'card-created'; paymentMethodId: string }
  | { type: 'set-start-date'; startDate: string }
  | { type: 'set-proration'; prorationMode: ProrationMode }
  | { type: 'set-punch-card'; issuePunchCard: boolean }
  | { type: 'set-coupon'; couponId: string | null }
  | { type: 'set-price'; price: string }
  | { type: 'totaled'; invoice: TotalChargeResponse }
  | { type: 'total-failed'; message: string }
  | { type: 'ran'; result: RunChargeResponse; invalidMessage: string }
  | { type: 'run-failed'; message: string }
  | { type: 'back' }
  | { type: 'reset' };

export function chargeFlowReducer(
  state: ChargeFlowState,
  action: ChargeFlowAction,
): ChargeFlowState {
  // Changing an answer on the first step forgets any totals made from the old answers.
  const edited = (next: Partial<ChargeFlowState>): ChargeFlowState => ({
    ...state,
    ...next,
    totaledInvoice: null,
    runResult: null,
    errorMessage: null,
  });
  switch (action.type) {
    case 'choose-product':
      // A new product starts its own answers: its price, coupon and start are its own.
      return edited({
        selectedProductId: action.productId,
        coupon: null,
        price: '',
        startDate: '',
        startupFee: true,
        issuePunchCard: false,
      });
    case 'choose-payment-method':
      return edited({ paymentMethodId: action.paymentMethodId });
    case 'card-created':
      return edited({
        paymentMethodId: action.paymentMethodId,
        createdPaymentMethodId: action.paymentMethodId,
      });
    case 'set-start-date':
      // spec §5: no start-up fee with a delayed start.
      return edited({ startDate: action.startDate, startupFee: action.startDate === '' });
    case 'set-proration':
      return edited({ prorationMode: action.prorationMode });
    case 'set-punch-card':
      return edited({ issuePunchCard: action.issuePunchCard });
    case 'set-coupon':
      return edited({ coupon: action.couponId });
    case 'set-price':
      return edited({ price: action.price });
    case 'totaled':
      return {
        ...state,
        currentStep: 'order-summary',
        totaledInvoice: action.invoice,
        runResult: null,
        errorMessage: null,
      };
    case 'total-failed':
      return { ...state, errorMessage: action.message };
    case 'ran':
      return action.result.valid
        ? { ...state, currentStep: 'completed', runResult: action.result, errorMessage: null }
        : {
            ...state,
            runResult: action.result,
            errorMessage: action.invalidMessage,
            // A figure that changed since Continue is shown again before anything is charged.
            ...(action.result.totals && state.totaledInvoice
              ? {
                  totaledInvoice: { ...state.totaledInvoice, totals: action.result.totals },
                }
              : {}),
          };
    case 'run-failed':
      return { ...state, errorMessage: action.message };
    case 'back':
      return { ...state, currentStep: 'product-selection', runResult: null, errorMessage: null };
    case 'reset':
      return initialChargeFlow;
  }
}

/** Whether the product's price is the customer's own (typed in the flow). */
export const takesPrice = (product: CatalogueProduct) =>
  product.variablePricing.enabled || product.state === 'requires-consultation';

/**
 * spec §5 Charge flow: Continue needs a product and a payment method, a valid start date and,
 * where the product asks for one, a price above zero. The reason it is disabled, or null.
 */
export function continueBlocker(
  state: ChargeFlowState,
  product: CatalogueProduct | null,
  today: string,
  priceMinor: number | null,
): string | null {
  if (!canContinue(state) || !product) return 'Choose a product and a payment method.';
  if (takesPrice(product) && (priceMinor === null || priceMinor <= 0)) {
    return 'A price must be set for this product';
  }
  return startDateRefusal(state.startDate || null, product.schedule, today);
}

/** spec §5: the punch-card toggle is off for recurring products. */
export const punchCardDisabled = (product: CatalogueProduct) => punchCardToggle(product).disabled;
