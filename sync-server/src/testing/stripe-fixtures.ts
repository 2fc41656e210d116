import { createStripeClient, stripeProcessor } from '../adapters/payments/stripe.ts';
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
