import { useState, type FormEvent } from 'react';
import { schedules, type Schedule } from '@platform/schema/payments/billing-calendar';
import type { CatalogueProduct } from '@platform/schema/payments/catalogue.zod';
import { formatMoney, parseMoneyInput } from '@platform/schema/payments/money';
import {
  productInputSchema,
  productMessages,
  type ProductInput,
  type ProductType,
} from '@platform/schema/payments/products.zod';
import { SwitchField, TextField } from '../../../components/form-fields.tsx';
import { FormNotice } from '../../../components/form-notice.tsx';
import { DialogActions } from '../../../components/dialog-actions.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useToast } from '../../../components/toast/toast-context.ts';
import { failureText, fieldErrorsOf } from '../../../lib/request-failure.ts';
import { catalogueTexts, scheduleLabels } from '../catalogue-texts.ts';
import type { CatalogueChanges } from '../hooks/use-catalogue.ts';

/** What the form holds: amounts as typed ('49.00'), turned into minor units on save. */
type Draft = {
  name: string;
  description: string;
  type: ProductType;
  schedule: Schedule;
  price: string;
  startupFee: string;
  requiresConsultation: boolean;
  variablePricing: boolean;
  prices: string[];
  unifiedBilling: boolean;
  billingDay: string;
  groups: Array<{ id: string; name: string; credits: string }>;
};

const money = (minor: number) => (minor / 100).toFixed(2);

function draftOf(product: CatalogueProduct | null): Draft {
  if (!product) {
    return {
      name: '',
      description: '',
      type: 'recurring',
      schedule: 'month',
      price: '',
      startupFee: '',
      requiresConsultation: false,
      variablePricing: false,
      prices: [''],
      unifiedBilling: false,
      billingDay: '1',
      groups: [],
    };
  }
  return {
    name: product.name,
    description: product.description,
    type: product.type,
    schedule: product.schedule,
    price: money(product.priceMinor),
    startupFee: product.startupFeeMinor ? money(product.startupFeeMinor) : '',
    requiresConsultation: product.state === 'requires-consultation',
    variablePricing: product.variablePricing.enabled,
    prices: product.variablePricing.prices.length
      ? product.variablePricing.prices.map((p) => money(p.price))
      : [''],
    unifiedBilling: product.unifiedBillingConfig.enabled,
    billingDay: String(product.unifiedBillingConfig.billingDayOfMonth),
    groups: product.punchCardConfiguration.groups.map((g) => ({
      id: g.id,
      name: g.name,
      credits: String(g.credits),
    })),
  };
}

type Errors = Partial<Record<string, string>>;

/** The product as the shared schema reads it, or the errors of what was typed wrong. */
export function productInputOf(draft: Draft): { input: ProductInput } | { errors: Errors } {
  const errors: Errors = {};
  const amount = (text: string, field: string, empty: number | null) => {
    if (text.trim() === '' && empty !== null) return empty;
    const minor = parseMoneyInput(text);
    if (minor === null) errors[field] = productMessages.priceInvalid;
    return minor ?? 0;
  };
  const priceMinor = amount(draft.price, 'priceMinor', draft.variablePricing ? 0 : null);
  const startupFeeMinor = amount(draft.startupFee, 'startupFeeMinor', 0);
  const prices = draft.variablePricing
    ? draft.prices
        .filter((text) => text.trim() !== '')
        .map((text, i) => ({ price: amount(text, `prices.${i}`, null) }))
    : [];
  const parsed = productInputSchema.safeParse({
    name: draft.name,
    description: draft.description,
    type: draft.type,
    schedule: draft.type === 'one-time' ? 'one-time' : draft.schedule,
    priceMinor,
    startupFeeMinor,
    state: draft.requiresConsultation ? 'requires-consultation' : 'available',
    variablePricing: { enabled: draft.variablePricing, prices },
    unifiedBillingConfig: {
      enabled: draft.type === 'recurring' && draft.unifiedBilling,
      billingDayOfMonth: Number(draft.billingDay) || 1,
    },
    punchCardConfiguration: {
      groups:
        draft.type === 'one-time'
          ? draft.groups.map((g) => ({ id: g.id, name: g.name, credits: Number(g.credits) }))
          : [],
    },
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) errors[issue.path.join('.')] ??= issue.message;
  }
  if (!parsed.success || Object.keys(errors).length > 0) return { errors };
  return { input: parsed.data };
}

/** Create or change a product (spec §3 Product): what it is, how it is billed, what it costs. */
export function ProductDialog({
  product,
  currency,
  onClose,
  save,
}: {
  /** null: a new product. */
  product: CatalogueProduct | null;
  currency: string;
  onClose: () => void;
  save: CatalogueChanges['saveProduct'];
}) {
  const toast = useToast();
  const [draft, setDraft] = useState<Draft>(() => draftOf(product));
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) =>
    setDraft((current) => ({ ...current, [key]: value }));
  const preview = parseMoneyInput(draft.price);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const outcome = productInputOf(draft);
    if ('errors' in outcome) {
      setErrors(outcome.errors);
      return;
    }
    setErrors({});
    try {
      await save.mutateAsync({ productId: product?.id ?? null, input: outcome.input });
      toast.success(catalogueTexts.productSaved);
      onClose();
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (fields.length > 0) setErrors(Object.fromEntries(fields.map((f) => [f.field, f.message])));
      else setFailure(failureText(error, 'Saving the product'));
    }
  }

  const setRow = (i: number, patch: Partial<Draft['groups'][number]>) =>
    set(
      'groups',
      draft.groups.map((g, j) => (j === i ? { ...g, ...patch } : g)),
    );

  return (
    <Modal
      open
      onOpenChange={(next) => !next && onClose()}
      title={product ? `Edit ${product.name}` : 'New product'}
      description="A membership, a class pack or a session customers can buy."
      focusFirstField
    >
      <form className="form product-form" noValidate onSubmit={(event) => void submit(event)}>
        <TextField
          label="Name"
          required
          value={draft.name}
          error={errors.name}
          onChange={(event) => set('name', event.target.value)}
        />
        <div className="field">
          <label htmlFor="product-description">Description (optional)</label>
          <textarea
            id="product-description"
            rows={3}
            value={draft.description}
            onChange={(event) => set('description', event.target.value)}
          />
        </div>
        <fieldset className="product-choice">
          <legend>Billing</legend>
          <label>
            <input
              type="radio"
              name="product-type"
              checked={draft.type === 'recurring'}
              onChange={() => set('type', 'recurring')}
            />{' '}
            Recurring (a subscription)
          </label>
          <label>
            <input
              type="radio"
              name="product-type"
              checked={draft.type === 'one-time'}
              onChange={() => set('type', 'one-time')}
            />{' '}
            One-time purchase
          </label>
        </fieldset>
        {draft.type === 'recurring' && (
          <div className="field">
            <label htmlFor="product-schedule">Charged</label>
            <select
              id="product-schedule"
              value={draft.schedule}
              onChange={(event) => set('schedule', event.target.value as Schedule)}
            >
              {schedules
                .filter((s) => s !== 'one-time')
                .map((s) => (
                  <option key={s} value={s}>
                    {scheduleLabels[s]}
                  </option>
                ))}
            </select>
            {errors.schedule && <p className="field-error">{errors.schedule}</p>}
          </div>
        )}
        <TextField
          label={`Price (${currency})`}
          inputMode="decimal"
          required={!draft.variablePricing}
          value={draft.price}
          error={errors.priceMinor}
          hint={preview !== null ? `Shown as ${formatMoney(preview, currency)}` : 'Such as 49.00'}
          onChange={(event) => set('price', event.target.value)}
        />
        <TextField
          label={`Start-up fee (${currency}, optional)`}
          inputMode="decimal"
          value={draft.startupFee}
          error={errors.startupFeeMinor}
          hint="Charged once with the first payment; never with a delayed start."
          onChange={(event) => set('startupFee', event.target.value)}
        />
        <SwitchField
          label="Requires consultation"
          hint="The price is agreed with each customer when they are invited."
          checked={draft.requiresConsultation}
          onChange={(event) => set('requiresConsultation', event.target.checked)}
        />
        <SwitchField
          label="Variable pricing"
          hint="Offer several prices; staff choose one when inviting or charging."
          checked={draft.variablePricing}
          onChange={(event) => set('variablePricing', event.target.checked)}
        />
        {draft.variablePricing && (
          <fieldset className="product-rows">
            <legend>Prices</legend>
            {draft.prices.map((price, i) => (
              <div key={i} className="product-row">
                <TextField
                  label={`Price ${i + 1}`}
                  inputMode="decimal"
                  value={price}
                  error={errors[`prices.${i}`]}
                  onChange={(event) =>
                    set(
                      'prices',
                      draft.prices.map((p, j) => (j === i ? event.target.value : p)),
                    )
                  }
                />
                {draft.prices.length > 1 && (
                  <button
                    type="button"
                    className="button button-secondary"
                    onClick={() =>
                      set(
                        'prices',
                        draft.prices.filter((_, j) => j !== i),
                      )
                    }
                  >
                    Remove price {i + 1}
                  </button>
                )}
              </div>
            ))}
            {errors['variablePricing.prices'] && (
              <p className="field-error">{errors['variablePricing.prices']}</p>
            )}
            <button
              type="button"
              className="button button-secondary"
              onClick={() => set('prices', [...draft.prices, ''])}
            >
              Add a price
            </button>
          </fieldset>
        )}
        {draft.type === 'recurring' && (
          <>
            <SwitchField
              label="Bill everyone on the same day of the month"
              hint="The first payment covers the days up to that day."
              checked={draft.unifiedBilling}
              onChange={(event) => set('unifiedBilling', event.target.checked)}
            />
            {errors['unifiedBillingConfig.enabled'] && (
              <p className="field-error">{errors['unifiedBillingConfig.enabled']}</p>
            )}
            {draft.unifiedBilling && (
              <TextField
                label="Billing day of the month (1–28)"
                type="number"
                min={1}
                max={28}
                value={draft.billingDay}
                onChange={(event) => set('billingDay', event.target.value)}
              />
            )}
          </>
        )}
        {draft.type === 'one-time' && (
          <fieldset className="product-rows">
            <legend>Punch cards (optional)</legend>
            <p className="field-hint">Credits the customer spends on classes, one per visit.</p>
            {draft.groups.map((group, i) => (
              <div key={group.id} className="product-row">
                <TextField
                  label={`Punch card ${i + 1} name`}
                  value={group.name}
                  error={errors[`punchCardConfiguration.groups.${i}.name`]}
                  onChange={(event) => setRow(i, { name: event.target.value })}
                />
                <TextField
                  label={`Punch card ${i + 1} credits`}
                  type="number"
                  min={1}
                  value={group.credits}
                  error={errors[`punchCardConfiguration.groups.${i}.credits`]}
                  onChange={(event) => setRow(i, { credits: event.target.value })}
                />
                <button
                  type="button"
                  className="button button-secondary"
                  onClick={() =>
                    set(
                      'groups',
                      draft.groups.filter((_, j) => j !== i),
                    )
                  }
                >
                  Remove punch card {i + 1}
                </button>
              </div>
            ))}
            <button
              type="button"
              className="button button-secondary"
              onClick={() =>
                set('groups', [
                  ...draft.groups,
                  { id: crypto.randomUUID(), name: '', credits: '10' },
                ])
              }
            >
              Add a punch card
            </button>
          </fieldset>
        )}
        <FormNotice notice={failure ? { tone: 'error', text: failure } : null} />
        <DialogActions
          busy={save.isPending}
          label="Save product"
          busyLabel="Saving…"
          onCancel={onClose}
        />
      </form>
    </Modal>
  );
}
