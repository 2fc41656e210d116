import type { CatalogueCoupon, CatalogueProduct } from '@platform/schema/payments/catalogue.zod';
import {
  chargeFlowMessages,
  latestStartDate,
  startDateRefusal,
} from '@platform/schema/payments/charge-flow.rules';
import { parseMoneyInput } from '@platform/schema/payments/money';
import {
  packageInviteMessages,
  type CustomerInvite,
  type SendPackageInvite,
} from '@platform/schema/payments/package-invite.zod';
import { takesPrice } from './charge-flow.ts';

/**
 * The product part of the Add customer dialog (spec §2 Invite-to-product, §3 Invite request,
 * §5 Invite and Delayed start rules): what staff answered, and whether it can be sent. Pure, so
 * every rule is unit-tested; the server checks the same rules again.
 */
export type InviteOffer = {
  /** null = "No product": the dialog only adds the customer. */
  productId: string | null;
  /** The agreed price as typed, for variable pricing / requires-consultation. */
  price: string;
  start: 'now' | 'date';
  /** YYYY-MM-DD, used when start is 'date'. */
  startDate: string;
  couponId: string | null;
};

export const emptyOffer: InviteOffer = {
  productId: null,
  price: '',
  start: 'now',
  startDate: '',
  couponId: null,
};

/** A new product starts its own answers: its price, coupon and start are its own. */
export const chooseOfferProduct = (productId: string | null): InviteOffer => ({
  ...emptyOffer,
  productId,
});

/** Coupons that may be used with `product` (none applies before a product is chosen). */
export const couponsFor = (coupons: CatalogueCoupon[], product: CatalogueProduct | null) =>
  product
    ? coupons.filter(
        (c) => c.appliesToProductIds.length === 0 || c.appliesToProductIds.includes(product.id),
      )
    : [];

/** Whether the product can start later than on purchase (a one-time product cannot). */
export const canDelayStart = (product: CatalogueProduct, today: string) =>
  latestStartDate(product.schedule, today) !== null;

/**
 * Why the offer cannot be sent (spec §5), or null when it can — "No product" always can. The
 * dialog's create button stays disabled while this is not null.
 */
export function offerBlocker(
  offer: InviteOffer,
  product: CatalogueProduct | null,
  today: string,
): string | null {
  if (offer.productId === null) return null;
  if (!product) return 'Choose a product.';
  if (!product.stripeProductId) return packageInviteMessages.stripeOnly;
  if (takesPrice(product)) {
    const price = parseMoneyInput(offer.price);
    if (price === null || price <= 0) return packageInviteMessages.priceRequired;
  }
  if (offer.start === 'date') {
    if (offer.startDate === '') return chargeFlowMessages.invalidDate;
    return startDateRefusal(offer.startDate, product.schedule, today);
  }
  return null;
}

/** The send-package-invite request for a valid offer (spec §3 Invite request). */
export function offerRequest(
  offer: InviteOffer,
  product: CatalogueProduct,
  rosterId: string,
): SendPackageInvite {
  return {
    action: 'send-package-invite',
    rosterId,
    productId: product.id,
    priceMinor: takesPrice(product) ? parseMoneyInput(offer.price) : null,
    startDate: offer.start === 'date' ? offer.startDate : null,
    couponId: offer.couponId,
  };
}

/** What the accept page shows for an invitation as the server answers it. */
export type InviteStanding = 'open' | 'accepted' | 'cancelled' | 'expired';

export function inviteStanding(invite: Pick<CustomerInvite, 'status' | 'expiresAt'>, now: Date) {
  if (invite.status === 'pending' && Date.parse(invite.expiresAt) <= now.getTime()) {
    return 'expired' satisfies InviteStanding;
  }
  return (invite.status === 'pending' ? 'open' : invite.status) satisfies InviteStanding;
}
