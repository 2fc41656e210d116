import { createHash, randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { sandboxCards, sandboxCharges } from '@platform/schema/db';
import type { Db } from '../../db/open-database.ts';
import type { ChargeOutcome, PaymentProcessor } from './port.ts';
import { sandboxCardOf, sandboxMessages, type SandboxBehaviour } from './sandbox-cards.ts';

const id = (prefix: string) => `${prefix}_sandbox_${randomBytes(12).toString('hex')}`;

/**
 * How the sandbox's subscriptions are told from another processor's: ours renews those itself
 * (the renewal job, decision 0060), a Stripe one is renewed by Stripe (decision 0057).
 */
export const SANDBOX_SUBSCRIPTION_PREFIX = 'sub_sandbox_';

const declines: Partial<Record<SandboxBehaviour, ChargeOutcome>> = {
  declined: { status: 'declined', message: sandboxMessages.declined },
  'insufficient-funds': { status: 'declined', message: sandboxMessages.insufficientFunds },
  'requires-authentication': {
    status: 'requires-action',
    message: sandboxMessages.requiresAuthentication,
  },
};

/**
 * The sandbox processor: no money moves. Its book is two tables of our own database — the
 * cards (what each test number does) and the charges, one row per idempotency key, so a key
 * asked twice gets the first outcome (INSERT … ON CONFLICT DO NOTHING, then read the row).
 */
export function sandboxProcessor(db: Db, now: () => Date = () => new Date()): PaymentProcessor {
  return {
    kind: 'sandbox',

    async createProduct() {
      return id('prod');
    },

    async saveCard({ orgId, card, verify = false }) {
      if (card.kind !== 'card-number') return { ok: false, message: sandboxMessages.numberOnly };
      const test = sandboxCardOf(card.number);
      if (!test) return { ok: false, message: sandboxMessages.notATestCard };
      // Checked with the bank, as Stripe checks a card it attaches: these two fail there.
      const refusal = verify ? declines[test.behaviour] : undefined;
      if (refusal && refusal.status === 'declined') return { ok: false, message: refusal.message };
      const today = now();
      const thisMonth = today.getUTCFullYear() * 12 + today.getUTCMonth();
      if (card.expYear * 12 + (card.expMonth - 1) < thisMonth) {
        return { ok: false, message: sandboxMessages.expired };
      }
      if (!/^\d{3,4}$/.test(card.cvc)) return { ok: false, message: sandboxMessages.cvcInvalid };
      const paymentMethodId = id('pm');
      await db
        .insert(sandboxCards)
        .values({ id: paymentMethodId, orgId, behaviour: test.behaviour });
      return {
        ok: true,
        card: {
          processorPaymentMethodId: paymentMethodId,
          brand: test.brand,
          last4: test.number.slice(-4),
          expMonth: card.expMonth,
          expYear: card.expYear,
        },
      };
    },

    async charge(request) {
      const [known] = await db
        .select()
        .from(sandboxCards)
        .where(
          and(
            eq(sandboxCards.id, request.processorPaymentMethodId),
            eq(sandboxCards.orgId, request.orgId),
          ),
        );
      const decline = known ? declines[known.behaviour] : undefined;
      const outcome = !known ? 'declined' : decline ? decline.status : 'succeeded';
      await db
        .insert(sandboxCharges)
        .values({
          orgId: request.orgId,
          idempotencyKey: request.idempotencyKey,
          processorPaymentMethodId: request.processorPaymentMethodId,
          amountMinor: request.amountMinor,
          currency: request.currency,
          outcome,
        })
        .onConflictDoNothing({ target: sandboxCharges.idempotencyKey });
      // Whoever asked first decided: answer what is on the book for this key.
      const [row] = await db
        .select()
        .from(sandboxCharges)
        .where(eq(sandboxCharges.idempotencyKey, request.idempotencyKey));
      if (!row) throw new Error('the sandbox lost a charge it had just written');
      if (row.outcome === 'succeeded')
        return { status: 'succeeded', chargeId: `ch_sandbox_${row.id}` };
      if (!known) return { status: 'declined', message: sandboxMessages.declined };
      return decline ?? { status: 'declined', message: sandboxMessages.declined };
    },

    // The id comes from the key, so asking twice answers the same subscription, as Stripe does.
    // Its renewals are the renewal job's (payments/renewal.service.ts, decision 0060): it reads
    // the price and the coupon from our own rows, so nothing of the request is kept here.
    async startSubscription({ idempotencyKey }) {
      const digest = createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 24);
      return { processorSubscriptionId: `${SANDBOX_SUBSCRIPTION_PREFIX}${digest}` };
    },

    // Nothing renews in the sandbox: which card a subscription renews with is our own row's
    // (subscriptions.payment_method_id), written by the caller.
    async useCardForSubscription() {},

    async cancelSubscriptionAtPeriodEnd() {},
  };
}
