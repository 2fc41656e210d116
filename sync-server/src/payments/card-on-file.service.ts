import { cardName } from '@platform/schema/payments/card-on-file.rules';
import { shopMessages, type ReplaceCardResponse } from '@platform/schema/payments/shop.zod';
import type { Mailer } from '../adapters/mailer/port.ts';
import { requirePaymentProcessing } from '../adapters/payments/none.ts';
import type { CardToSave, PaymentProcessor } from '../adapters/payments/port.ts';
import type { Db } from '../db/open-database.ts';
import { notifyChange } from '../sync/change-feed.ts';
import { orgLabel } from './package-invites.repository.ts';
import * as repo from './payments.repository.ts';
import type { Buyer } from './shop.service.ts';
import {
  findSubscription,
  renewingSubscriptionsOf,
  setSubscriptionsCard,
} from './subscriptions.repository.ts';

/**
 * POST /api/shop/payment-method (issue 15 "the card on file (replace it)", decision 0064): the
 * buyer's new card, checked with its bank and kept by the processor, becomes the card every one
 * of their subscriptions in this organisation renews with — at the processor first, then in our
 * rows, whose change reaches their family's devices by replication. A card the processor refuses
 * is the answer, with its message, and nothing changes.
 */
export async function replaceCardOnFile(
  deps: { db: Db; processor: PaymentProcessor; mailer?: Mailer },
  buyer: Buyer,
  toSave: CardToSave,
): Promise<ReplaceCardResponse> {
  const { db } = deps;
  const processor = requirePaymentProcessing(deps.processor);
  const saved = await processor.saveCard({
    orgId: buyer.orgId,
    userId: buyer.userId,
    card: toSave,
    verify: true,
  });
  if (!saved.ok) return { valid: false, message: saved.message };
  const method = await repo.insertPaymentMethod(db, {
    orgId: buyer.orgId,
    userId: buyer.userId,
    processor: processor.kind,
    ...saved.card,
  });
  const card = repo.cardOnFileOf(method);
  const renewing = await renewingSubscriptionsOf(db, buyer.orgId, buyer.userId);
  // The processor first: were it out of reach, our rows still name the card it charges, and
  // asking again (the same card entered again) is harmless.
  for (const subscription of renewing) {
    if (!subscription.processorSubscriptionId) continue;
    await processor.useCardForSubscription({
      orgId: buyer.orgId,
      userId: buyer.userId,
      processorSubscriptionId: subscription.processorSubscriptionId,
      processorPaymentMethodId: method.processorPaymentMethodId,
    });
  }
  const label = cardName(card);
  const pastDue = renewing.some((s) => s.status === 'past-due');
  const message =
    renewing.length === 0
      ? shopMessages.cardSaved(label)
      : pastDue
        ? `${shopMessages.cardReplaced(label)} ${shopMessages.cardRetry}`
        : shopMessages.cardReplaced(label);
  const email = deps.mailer ? await repo.emailOf(db, buyer.userId) : null;
  const org = email ? await orgLabel(db, buyer.orgId) : '';
  await db.transaction(async (tx) => {
    await setSubscriptionsCard(
      tx,
      buyer.orgId,
      renewing.map((s) => s.id),
      { paymentMethodId: method.id, card },
    );
    if (renewing.length > 0) {
      await notifyChange(tx, {
        collection: 'purchases',
        orgId: buyer.orgId,
        ownerIds: [buyer.userId],
      });
    }
    // A changed card is said to its owner, whoever changed it (a guardian switched in).
    if (email && deps.mailer && renewing.length > 0) {
      await deps.mailer.send(
        {
          orgId: buyer.orgId,
          to: email,
          subject: `Your card on file with ${org} was changed`,
          text: [message, '', `If you did not change it, tell ${org} and check your account.`].join(
            '\n',
          ),
        },
        { tx },
      );
    }
  });
  // A card subscription from a file whose processor's subscription was being made as this read
  // them: the start job may have written its id (with the old card) after this looked. It checks
  // the card itself when it writes the id after this; here, when it wrote it before.
  const unstarted = renewing.filter((s) => !s.processorSubscriptionId).map((s) => s.id);
  for (const id of unstarted) {
    const after = await findSubscription(db, buyer.orgId, id);
    if (after?.processorSubscriptionId && after.paymentMethodId === method.id)
      await processor.useCardForSubscription({
        orgId: buyer.orgId,
        userId: buyer.userId,
        processorSubscriptionId: after.processorSubscriptionId,
        processorPaymentMethodId: method.processorPaymentMethodId,
      });
  }
  return { valid: true, card, subscriptions: renewing.length, message };
}
