import type { FastifyInstance } from 'fastify';
import { paymentMethods } from '@platform/schema/db';
import { sandboxProcessor } from '../adapters/payments/sandbox.ts';
import type { Db } from '../db/open-database.ts';
import type { CookieJar } from './cookie-jar.ts';
import { archiveProduct, createProduct } from '../payments/catalogue.service.ts';
import { runCharge, totalCharge } from '../payments/charge.service.ts';

type Staff = { orgId: string; userId: string };

/** A product of the organisation's catalogue, made as staff make it (sandbox processor). */
export function offerProduct(db: Db, staff: Staff, name: string, recurring = true) {
  return createProduct(db, sandboxProcessor(db), staff, {
    name,
    type: recurring ? 'recurring' : 'one-time',
    schedule: recurring ? 'month' : 'one-time',
    priceMinor: 4_900,
  });
}

export const archiveOffer = (db: Db, staff: Staff, productId: string) =>
  archiveProduct(db, staff, productId);

/** An order totaled and not charged (Continue without Run charge). */
export async function totalOrder(
  db: Db,
  staff: Staff,
  customerUserId: string,
  productId: string,
  paymentMethodId: string | null = null,
) {
  return totalCharge(db, {
    orgId: staff.orgId,
    actorUserId: staff.userId,
    customerUserId,
    productId,
    couponId: null,
    paymentMethodId,
    priceMinor: null,
    startDate: null,
    prorationMode: 'charge-prorated',
    issuePunchCard: false,
  });
}

/** A card saved for the customer through the sandbox, as the charge desk saves one. */
export async function saveTestCard(
  db: Db,
  owner: { orgId: string; userId: string },
  number = '4242 4242 4242 4242',
) {
  const saved = await sandboxProcessor(db).saveCard({
    orgId: owner.orgId,
    userId: owner.userId,
    card: { kind: 'card-number', number, expMonth: 12, expYear: 2030, cvc: '123' },
  });
  if (!saved.ok) throw new Error(saved.message);
  const [method] = await db
    .insert(paymentMethods)
    .values({ orgId: owner.orgId, userId: owner.userId, processor: 'sandbox', ...saved.card })
    .returning();
  if (!method) throw new Error('The card was not kept.');
  return method.id;
}

/** Staff sell the product to the customer with the sandbox's succeeding card (spec §4). */
export async function sellWithTestCard(
  db: Db,
  staff: Staff,
  customerUserId: string,
  productId: string,
) {
  const methodId = await saveTestCard(db, { orgId: staff.orgId, userId: customerUserId });
  const { invoiceId } = await totalOrder(db, staff, customerUserId, productId, methodId);
  const result = await runCharge(db, sandboxProcessor(db), { orgId: staff.orgId, invoiceId });
  if (!result.valid) throw new Error(result.message);
  return { invoiceId, subscriptionId: result.subscriptionId };
}

/**
 * A product made as staff make it, through POST /api/catalogue/products (a monthly 99.00 with a
 * fresh name unless `body` says otherwise); answers the product as the route does.
 */
export async function productThroughRoute(
  app: FastifyInstance,
  jar: CookieJar,
  body: Partial<{ name: string; type: string; schedule: string; priceMinor: number }> = {},
) {
  const made = await app.inject({
    method: 'POST',
    url: '/api/catalogue/products',
    payload: {
      name: `Unlimited ${crypto.randomUUID().slice(0, 8)}`,
      type: 'recurring',
      schedule: 'month',
      priceMinor: 9_900,
      ...body,
    },
    headers: jar.headers(),
  });
  if (made.statusCode !== 201) throw new Error(`product not made: ${made.body}`);
  return made.json<{ id: string; name: string; priceMinor: number }>();
}
