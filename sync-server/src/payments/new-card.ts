import type { LivePaymentProcessor } from '../adapters/payments/none.ts';
import type { CardInput, CardToSave } from '../adapters/payments/port.ts';
import type { Db } from '../db/open-database.ts';
import * as repo from './payments.repository.ts';

/**
 * The new card a money route's body names (schema's newCardFields): the number typed into the
 * sandbox's form, or the PaymentMethod Stripe Elements made on the card-entry page (decision
 * 0063). Each adapter refuses the other kind with its own message.
 */
export function newCardOf(body: {
  card?: CardInput | null;
  processorPaymentMethodId?: string | null;
}): CardToSave | null {
  if (body.card) return { kind: 'card-number', ...body.card };
  if (body.processorPaymentMethodId)
    return {
      kind: 'processor-payment-method',
      processorPaymentMethodId: body.processorPaymentMethodId,
    };
  return null;
}

/** A body that names exactly one new card (Replace card's, and the desk's as `{ card }`). */
export function cardToSave(
  body: { card: CardInput } | { processorPaymentMethodId: string },
): CardToSave {
  return 'card' in body
    ? { kind: 'card-number', ...body.card }
    : { kind: 'processor-payment-method', processorPaymentMethodId: body.processorPaymentMethodId };
}

/** Keeps a new card at the processor, then in our rows; a card it refuses says why. */
export async function keepNewCard(
  db: Db,
  processor: LivePaymentProcessor,
  owner: { orgId: string; userId: string },
  card: CardToSave,
): Promise<{ ok: true; paymentMethodId: string } | { ok: false; message: string }> {
  const saved = await processor.saveCard({ ...owner, card });
  if (!saved.ok) return saved;
  const row = await repo.insertPaymentMethod(db, {
    ...owner,
    processor: processor.kind,
    ...saved.card,
  });
  return { ok: true, paymentMethodId: row.id };
}
