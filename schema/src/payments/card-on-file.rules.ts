import type { CardOnFile, PurchaseDoc } from './purchase-docs.zod.ts';

/**
 * The card on file (issue 15, decision 0064): each subscription that will charge again keeps the
 * card it is charged to, and Purchase history shows a person's cards from those subscriptions.
 */

/** Subscriptions that will charge again — the ones whose card matters. */
export const renewingStatuses = ['scheduled', 'active', 'past-due'] as const;

export function isRenewing(status: PurchaseDoc['status']): boolean {
  return (renewingStatuses as readonly string[]).includes(status);
}

/** "Visa •••• 4242" */
export const cardName = (card: Pick<CardOnFile, 'brand' | 'last4'>) =>
  `${card.brand} •••• ${card.last4}`;

/** "12/30", as the card itself says it. */
export const cardExpiry = (card: Pick<CardOnFile, 'expMonth' | 'expYear'>) =>
  `${String(card.expMonth).padStart(2, '0')}/${String(card.expYear % 100).padStart(2, '0')}`;

/** A card is good through the last day of its expiry month; `today` is YYYY-MM-DD. */
export function isCardExpired(card: Pick<CardOnFile, 'expMonth' | 'expYear'>, today: string) {
  const [year = 0, month = 0] = today.split('-').map(Number);
  return card.expYear * 12 + card.expMonth < year * 12 + month;
}

type Purchase = Pick<PurchaseDoc, 'customerUserId' | 'status' | 'card' | 'productName'>;

/**
 * The cards `userId`'s renewing subscriptions are charged to, each once, with what it pays for:
 * usually one card (replacing it makes it the card of them all); several when subscriptions were
 * bought with different cards. Subscriptions without a card (paid outside the platform) are
 * left out, in the order the purchases come.
 */
export function cardsOnFile(
  purchases: readonly Purchase[],
  userId: string,
): Array<{ card: CardOnFile; productNames: string[]; pastDue: boolean }> {
  const byCard = new Map<string, { card: CardOnFile; productNames: string[]; pastDue: boolean }>();
  for (const purchase of purchases) {
    const { card } = purchase;
    if (purchase.customerUserId !== userId || !card || !isRenewing(purchase.status)) continue;
    const key = `${card.brand}|${card.last4}|${card.expMonth}|${card.expYear}`;
    const entry = byCard.get(key) ?? { card, productNames: [], pastDue: false };
    entry.productNames.push(purchase.productName);
    entry.pastDue ||= purchase.status === 'past-due';
    byCard.set(key, entry);
  }
  return [...byCard.values()];
}
