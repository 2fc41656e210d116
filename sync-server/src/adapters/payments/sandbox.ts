import { createHash, randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { sandboxCards, sandboxCharges, sandboxRefunds } from '@platform/schema/db';
import { rowsOf } from '../../db/open-database.ts';
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

    // Under the charge's row lock: a refund asked under a new key sees every refund before it,
    // so together they never give back more than the charge took.
    async refund(request) {
      const chargeRowId =
        /^ch_sandbox_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/.exec(
          request.chargeId,
        )?.[1];
      const refused = { status: 'refused', message: sandboxMessages.refundRefused } as const;
      if (!chargeRowId) return refused;
      return db.transaction(async (tx) => {
        const [locked] = rowsOf<{ id: string; amount_minor: number }>(
          await tx.execute(sql`
            select c.id, c.amount_minor from sandbox_charges c
            where c.id = ${chargeRowId} and c.org_id = ${request.orgId} and c.outcome = 'succeeded'
            for update`),
        );
        // Read after the lock, in a statement of its own: its snapshot sees every refund
        // committed while this one waited (a subquery of the locking statement would not).
        const charge = locked && {
          ...locked,
          refunded: rowsOf<{ refunded: number }>(
            await tx.execute(sql`
              select coalesce(sum(amount_minor), 0)::int as refunded
              from sandbox_refunds where charge_id = ${locked.id}`),
          )[0]!.refunded,
        };
        const [known] = await tx
          .select()
          .from(sandboxRefunds)
          .where(eq(sandboxRefunds.idempotencyKey, request.idempotencyKey));
        if (known) {
          return known.chargeId === chargeRowId &&
            known.orgId === request.orgId &&
            known.amountMinor === request.amountMinor
            ? { status: 'refunded', refundId: `re_sandbox_${known.id}` }
            : refused;
        }
        if (
          !charge ||
          request.amountMinor <= 0 ||
          charge.refunded + request.amountMinor > charge.amount_minor
        )
          return refused;
        const [row] = await tx
          .insert(sandboxRefunds)
          .values({
            orgId: request.orgId,
            idempotencyKey: request.idempotencyKey,
            chargeId: charge.id,
            amountMinor: request.amountMinor,
          })
          .returning({ id: sandboxRefunds.id });
        return { status: 'refunded', refundId: `re_sandbox_${row!.id}` };
      });
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
