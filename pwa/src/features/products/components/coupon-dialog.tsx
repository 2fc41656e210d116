import { useState, type FormEvent } from 'react';
import type { CatalogueProduct } from '@platform/schema/payments/catalogue.zod';
import { parseMoneyInput } from '@platform/schema/payments/money';
import {
  couponDurations,
  couponInputSchema,
  couponMessages,
  couponTypes,
  newDiscountDefaults,
  type CouponDuration,
  type CouponType,
} from '@platform/schema/payments/products.zod';
import { TextField } from '../../../components/form-fields.tsx';
import { FormNotice } from '../../../components/form-notice.tsx';
import { DialogActions } from '../../../components/dialog-actions.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useToast } from '../../../components/toast/toast-context.ts';
import { failureText } from '../../../lib/request-failure.ts';
import { catalogueTexts, couponTypeLabels, durationLabels } from '../catalogue-texts.ts';
import type { CatalogueChanges } from '../hooks/use-catalogue.ts';

type Errors = Partial<Record<string, string>>;

/**
 * A new coupon (spec §3 Coupon) with the new-discount defaults of spec §9: percentage 10, one
 * redemption, forever (once when every product it names is one-time).
 */
export function CouponDialog({
  products,
  currency,
  onClose,
  create,
}: {
  products: CatalogueProduct[];
  currency: string;
  onClose: () => void;
  create: CatalogueChanges['createCoupon'];
}) {
  const toast = useToast();
  const defaults = newDiscountDefaults(null);
  const [name, setName] = useState('');
  const [type, setType] = useState<CouponType>(defaults.type);
  const [amount, setAmount] = useState(String(defaults.amount));
  const [redemptions, setRedemptions] = useState(String(defaults.numberOfRedemptions ?? ''));
  const [productIds, setProductIds] = useState<string[]>([]);
  const [duration, setDuration] = useState<CouponDuration>(defaults.duration.durationType);
  const [months, setMonths] = useState('3');
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);

  const chooseProducts = (ids: string[]) => {
    setProductIds(ids);
    // spec §9: forever for recurring products; a coupon only for one-time products is used once.
    const named = products.filter((p) => ids.includes(p.id));
    if (named.length > 0)
      setDuration(named.every((p) => p.type === 'one-time') ? 'once' : 'forever');
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const amountValue =
      type === 'fixed' ? parseMoneyInput(amount) : type === 'none' ? 0 : Number(amount);
    if (amountValue === null || Number.isNaN(amountValue)) {
      setErrors({
        amount: type === 'fixed' ? couponMessages.fixedInvalid : couponMessages.percentInvalid,
      });
      return;
    }
    const parsed = couponInputSchema.safeParse({
      name,
      type,
      amount: amountValue,
      numberOfRedemptions: redemptions.trim() === '' ? null : Number(redemptions),
      appliesToProductIds: productIds,
      duration: {
        durationType: duration,
        durationInMonths: duration === 'repeating' ? Number(months) : null,
      },
    });
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) next[issue.path.join('.')] ??= issue.message;
      setErrors(next);
      return;
    }
    setErrors({});
    try {
      await create.mutateAsync(parsed.data);
      toast.success(catalogueTexts.couponCreated);
      onClose();
    } catch (error) {
      setFailure(failureText(error, 'Creating the coupon'));
    }
  }

  return (
    <Modal
      open
      onOpenChange={(next) => !next && onClose()}
      title="New coupon"
      description="A discount staff can apply when inviting or charging a customer."
      focusFirstField
    >
      <form className="form coupon-form" noValidate onSubmit={(event) => void submit(event)}>
        <TextField
          label="Name"
          required
          value={name}
          error={errors.name}
          onChange={(event) => setName(event.target.value)}
        />
        <div className="field">
          <label htmlFor="coupon-type">Discount</label>
          <select
            id="coupon-type"
            value={type}
            onChange={(event) => setType(event.target.value as CouponType)}
          >
            {couponTypes.map((t) => (
              <option key={t} value={t}>
                {couponTypeLabels[t]}
              </option>
            ))}
          </select>
        </div>
        {type !== 'none' && (
          <TextField
            label={type === 'percentage' ? 'Percent off' : `Amount off (${currency})`}
            inputMode={type === 'percentage' ? 'numeric' : 'decimal'}
            required
            value={amount}
            error={errors.amount}
            onChange={(event) => setAmount(event.target.value)}
          />
        )}
        <TextField
          label="Number of redemptions"
          type="number"
          min={1}
          value={redemptions}
          hint="Leave empty for no limit."
          error={errors.numberOfRedemptions}
          onChange={(event) => setRedemptions(event.target.value)}
        />
        <fieldset className="product-choice">
          <legend>Applies to</legend>
          {products.length === 0 && <p className="field-hint">Every product.</p>}
          {products.map((product) => (
            <label key={product.id}>
              <input
                type="checkbox"
                checked={productIds.includes(product.id)}
                onChange={(event) =>
                  chooseProducts(
                    event.target.checked
                      ? [...productIds, product.id]
                      : productIds.filter((id) => id !== product.id),
                  )
                }
              />{' '}
              {product.name}
            </label>
          ))}
          {products.length > 0 && <p className="field-hint">None ticked: every product.</p>}
        </fieldset>
        <div className="field">
          <label htmlFor="coupon-duration">Duration</label>
          <select
            id="coupon-duration"
            value={duration}
            onChange={(event) => setDuration(event.target.value as CouponDuration)}
          >
            {couponDurations.map((d) => (
              <option key={d} value={d}>
                {durationLabels[d]}
              </option>
            ))}
          </select>
        </div>
        {duration === 'repeating' && (
          <TextField
            label="Months"
            type="number"
            min={1}
            max={36}
            value={months}
            error={errors['duration.durationInMonths']}
            onChange={(event) => setMonths(event.target.value)}
          />
        )}
        <FormNotice notice={failure ? { tone: 'error', text: failure } : null} />
        <DialogActions
          busy={create.isPending}
          label="Create coupon"
          busyLabel="Creating…"
          onCancel={onClose}
        />
      </form>
    </Modal>
  );
}
