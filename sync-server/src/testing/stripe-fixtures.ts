import { paymentMethods, products } from '@platform/schema/db';
import type { PaymentProcessor } from '../adapters/payments/port.ts';
import { createStripeClient, stripeProcessor } from '../adapters/payments/stripe.ts';
import type { Db } from '../db/open-database.ts';
import { insertTestOrg, insertTestUser } from './auth-fixtures.ts';
import { insertRosterItem } from './sync-fixtures.ts';
import { startStripeWireServer } from './stripe-wire-server.ts';
import { createTestDatabase } from './test-database.ts';

/**
 * A test database, a local server speaking Stripe's wire format, and the Stripe adapter pointed
 * at it. `maxNetworkRetries`: the SDK's own retries (its default unless given).
 */
export async function startStripeBench(
  kind: 'postgres' | 'pglite',
  options: { maxNetworkRetries?: number } = {},
) {
  const database = await createTestDatabase(kind);
  const wire = await startStripeWireServer();
  const stripe = stripeProcessor(
    database.db,
    createStripeClient({ secretKey: 'sk_test_wire', apiBase: wire.apiBase, ...options }),
  );
  return {
    db: database.db,
    wire,
    stripe,
    close: async () => {
      await wire.close();
      await database.close();
    },
  };
}

/**
 * An organisation with a monthly product at Stripe (99.00) and a customer on its list with a
 * Visa saved at Stripe and kept as a card on file — what a card subscription needs.
 */
export async function stripeCustomerWithCard(db: Db, stripe: PaymentProcessor) {
  const org = await insertTestOrg(db);
  const customer = await insertTestUser(db);
  await insertRosterItem(db, org.id, customer);
  const productId = crypto.randomUUID();
  const processorProductId = await stripe.createProduct({
    orgId: org.id,
    productId,
    name: 'Unlimited classes',
  });
  await db.insert(products).values({
    id: productId,
    orgId: org.id,
    name: 'Unlimited classes',
    type: 'recurring',
    schedule: 'month',
    priceMinor: 9_900,
    processorProductId,
  });
  const saved = await stripe.saveCard({
    orgId: org.id,
    userId: customer.id,
    card: { kind: 'processor-payment-method', processorPaymentMethodId: 'pm_card_visa' },
  });
  if (!saved.ok) throw new Error(saved.message);
  const [method] = await db
    .insert(paymentMethods)
    .values({ orgId: org.id, userId: customer.id, processor: 'stripe', ...saved.card })
    .returning();
  return { org, customer, productId, processorProductId, card: saved.card, methodId: method!.id };
}
