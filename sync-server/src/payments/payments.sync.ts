import type {
  bookingPayments,
  invoices,
  products,
  punchCardCredits,
  subscriptions,
} from '@platform/schema/db';
import type { BookingPaymentDoc } from '@platform/schema/bookings/booking-pay.zod';
import type { CreditDoc } from '@platform/schema/payments/credit-doc.zod';
import type { ProductDoc } from '@platform/schema/payments/product-doc.zod';
import type { InvoiceDoc, PurchaseDoc } from '@platform/schema/payments/purchase-docs.zod';
import type { WireDoc } from '../sync/collection-definition.ts';
import { productView } from './catalogue.service.ts';

// The replication registry (sync/collections) reads stored payment rows as documents through
// here: the catalogue (`products`) and what was bought (`purchases`, `invoices`). All three are
// read-only on devices (decision 0058); their rows are written by catalogue.service.ts and
// charge.service.ts, which announce each change. Punch-card credits (`credits`, decision 0062)
// are written by credits.service.ts.

type ProductRow = typeof products.$inferSelect;
type SubscriptionRow = typeof subscriptions.$inferSelect;
type InvoiceRow = typeof invoices.$inferSelect;
type CreditRow = typeof punchCardCredits.$inferSelect;

/** An archived product is no longer offered: every device drops it (a tombstone). */
export function productToDoc(row: ProductRow): WireDoc<ProductDoc> {
  // The catalogue's own view of the product, less the processor's id, which stays on the server.
  const { stripeProductId: _processorId, ...product } = productView(row);
  return {
    ...product,
    orgId: row.orgId,
    updatedAt: row.updatedAt.toISOString(),
    _deleted: row.deleted || row.state === 'archived',
  };
}

export function purchaseToDoc(row: SubscriptionRow): WireDoc<PurchaseDoc> {
  return {
    id: row.id,
    orgId: row.orgId,
    customerUserId: row.customerUserId,
    productId: row.productId,
    productName: row.productName,
    priceMinor: row.priceMinor,
    status: row.status,
    startedOn: row.startedOn,
    nextBillingDate: row.nextBillingDate,
    cancelledAt: row.cancelledAt?.toISOString() ?? null,
    // Brand, last 4 and expiry only (cardOnFileOf wrote them): the number was never ours.
    card: row.card
      ? {
          brand: row.card.brand,
          last4: row.card.last4,
          expMonth: row.card.expMonth,
          expYear: row.card.expYear,
        }
      : null,
    externalPayments: row.externalPayments,
    endsOn: row.endsOn,
    updatedAt: row.updatedAt.toISOString(),
    _deleted: row.deleted,
  };
}

/**
 * Only a paid invoice is a purchase: an order totaled and not (yet) charged is a tombstone, so a
 * device never shows it, and drops one it had should an invoice ever leave `paid`.
 */
export function invoiceToDoc(row: InvoiceRow): WireDoc<InvoiceDoc> {
  return {
    id: row.id,
    orgId: row.orgId,
    customerUserId: row.customerUserId,
    subscriptionId: row.subscriptionId,
    productId: row.productId,
    productName: row.productName,
    totalMinor: row.totalMinor,
    currency: row.currency,
    paidAt: row.paidAt?.toISOString() ?? null,
    lineItems: row.totals.lineItems.map((line) => ({
      type: line.type,
      description: line.description,
      originalAmount: line.originalAmount,
      finalAmount: line.finalAmount,
      discountAmount: line.discountAmount,
      discountPercent: line.discountPercent,
      isProrated: line.isProrated,
      prorationDescription: line.prorationDescription,
    })),
    updatedAt: row.updatedAt.toISOString(),
    _deleted: row.deleted || row.status !== 'paid',
  };
}

/** A punch-card ledger row (decision 0062); rows are never changed, only added. */
export function creditToDoc(row: CreditRow): WireDoc<CreditDoc> {
  return {
    id: row.id,
    orgId: row.orgId,
    customerUserId: row.customerUserId,
    productId: row.productId,
    productName: row.productName,
    groupId: row.groupId,
    groupName: row.groupName,
    delta: row.delta,
    reason: row.reason,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    _deleted: row.deleted,
  };
}

type BookingPaymentRow = typeof bookingPayments.$inferSelect;

/**
 * A payment at booking (decision 0070), for the payer's receipts: one never charged (being
 * charged, or declined) is a tombstone — there is nothing to show for it.
 */
export function bookingPaymentToDoc(row: BookingPaymentRow): WireDoc<BookingPaymentDoc> {
  const charged = row.status !== 'charging' && row.status !== 'declined';
  return {
    id: row.id,
    orgId: row.orgId,
    payerUserId: row.payerUserId,
    customerUserId: row.customerUserId,
    bookingId: row.bookingId,
    // Nothing of an attempt never charged leaves the server but that it is gone.
    description: charged ? row.description : '',
    amountMinor: charged ? row.amountMinor : 0,
    currency: row.currency,
    status: charged ? (row.status as BookingPaymentDoc['status']) : 'paid',
    paidAt: row.paidAt?.toISOString() ?? null,
    refundedAt: row.refundedAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
    _deleted: row.deleted || !charged,
  };
}
