import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { sandboxCharges, sandboxRefunds } from '@platform/schema/db';
import type { Db } from '../../db/open-database.ts';
import { insertTestOrg, insertTestUser } from '../../testing/auth-fixtures.ts';
import { createTestDatabase, testDatabaseKinds } from '../../testing/test-database.ts';
import type { RefundOutcome, RefundRequest } from './port.ts';
import { sandboxProcessor } from './sandbox.ts';
import { sandboxMessages } from './sandbox-cards.ts';

const refused: RefundOutcome = { status: 'refused', message: sandboxMessages.refundRefused };

// Issue 16, decision 0070: the sandbox gives back what a charge took — once per idempotency
// key, only the same organisation's succeeded charges, never more in total than the charge.
describe.each(testDatabaseKinds)('the sandbox processor’s refunds on %s', (kind) => {
  let db: Db;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, close } = await createTestDatabase(kind));
  });
  afterAll(() => close());

  /** A charge of `amountMinor` with a test card; its outcome as the sandbox answered it. */
  async function chargeWith(number: string, amountMinor = 5_000) {
    const org = await insertTestOrg(db);
    const user = await insertTestUser(db);
    const sandbox = sandboxProcessor(db);
    const saved = await sandbox.saveCard({
      orgId: org.id,
      userId: user.id,
      card: { kind: 'card-number', number, expMonth: 12, expYear: 2099, cvc: '123' },
    });
    if (!saved.ok) throw new Error(saved.message);
    const outcome = await sandbox.charge({
      orgId: org.id,
      userId: user.id,
      idempotencyKey: `charge:${crypto.randomUUID()}`,
      processorPaymentMethodId: saved.card.processorPaymentMethodId,
      amountMinor,
      currency: 'USD',
      description: 'A class',
    });
    return { orgId: org.id, outcome };
  }

  async function succeededCharge(amountMinor = 5_000) {
    const { orgId, outcome } = await chargeWith('4242424242424242', amountMinor);
    if (outcome.status !== 'succeeded') throw new Error(`the charge was ${outcome.status}`);
    return { orgId, chargeId: outcome.chargeId };
  }

  const refund = (request: Omit<RefundRequest, 'idempotencyKey'> & { idempotencyKey?: string }) =>
    sandboxProcessor(db).refund({ idempotencyKey: `refund:${crypto.randomUUID()}`, ...request });

  const refundsOf = (chargeId: string) =>
    db
      .select()
      .from(sandboxRefunds)
      .where(eq(sandboxRefunds.chargeId, chargeId.replace(/^ch_sandbox_/, '')));

  it('refunds a succeeded charge once per key: the same key answers the same refund', async () => {
    const { orgId, chargeId } = await succeededCharge();
    const idempotencyKey = `refund:${crypto.randomUUID()}`;
    const first = await refund({ orgId, chargeId, amountMinor: 5_000, idempotencyKey });
    expect(first).toEqual({
      status: 'refunded',
      refundId: expect.stringMatching(/^re_sandbox_[0-9a-f-]{36}$/),
    });
    expect(await refund({ orgId, chargeId, amountMinor: 5_000, idempotencyKey })).toEqual(first);
    const rows = await refundsOf(chargeId);
    expect(rows).toEqual([expect.objectContaining({ orgId, idempotencyKey, amountMinor: 5_000 })]);
    expect(first.status === 'refunded' && first.refundId).toBe(`re_sandbox_${rows[0]!.id}`);
    // The key is this charge's refund: asked for another charge, it refunds nothing there.
    const other = await succeededCharge();
    expect(
      await refund({
        orgId: other.orgId,
        chargeId: other.chargeId,
        amountMinor: 100,
        idempotencyKey,
      }),
    ).toEqual(refused);
    expect(await refundsOf(other.chargeId)).toEqual([]);
  });

  it('refunds in parts up to what the charge took, and refuses any more', async () => {
    const { orgId, chargeId } = await succeededCharge(5_000);
    expect(await refund({ orgId, chargeId, amountMinor: 3_000 })).toMatchObject({
      status: 'refunded',
    });
    expect(await refund({ orgId, chargeId, amountMinor: 2_001 })).toEqual(refused);
    expect(await refund({ orgId, chargeId, amountMinor: 2_000 })).toMatchObject({
      status: 'refunded',
    });
    expect(await refund({ orgId, chargeId, amountMinor: 1 })).toEqual(refused);
    const rows = await refundsOf(chargeId);
    expect(rows.map((r) => r.amountMinor).sort()).toEqual([2_000, 3_000]);
  });

  it('refuses nothing or less than nothing', async () => {
    const { orgId, chargeId } = await succeededCharge();
    expect(await refund({ orgId, chargeId, amountMinor: 0 })).toEqual(refused);
    expect(await refund({ orgId, chargeId, amountMinor: -100 })).toEqual(refused);
    expect(await refundsOf(chargeId)).toEqual([]);
  });

  it('refuses another organisation’s charge, and leaves it whole for its own', async () => {
    const { orgId, chargeId } = await succeededCharge();
    const stranger = await insertTestOrg(db);
    expect(await refund({ orgId: stranger.id, chargeId, amountMinor: 5_000 })).toEqual(refused);
    expect(await refundsOf(chargeId)).toEqual([]);
    expect(await refund({ orgId, chargeId, amountMinor: 5_000 })).toMatchObject({
      status: 'refunded',
    });
  });

  it('refuses a charge that did not succeed, and one it never made', async () => {
    const { orgId, outcome } = await chargeWith('4000000000000002');
    expect(outcome).toMatchObject({ status: 'declined' });
    // A declined charge answers no id; its row is on the book all the same, under the id a
    // succeeded one would have had.
    const [declined] = await db
      .select({ id: sandboxCharges.id, outcome: sandboxCharges.outcome })
      .from(sandboxCharges)
      .where(eq(sandboxCharges.orgId, orgId));
    expect(declined?.outcome).toBe('declined');
    for (const chargeId of [
      `ch_sandbox_${declined!.id}`,
      `ch_sandbox_${crypto.randomUUID()}`,
      'ch_sandbox_nothing',
      'pi_3MtwBwLkdIwHu7ix28a3tqPa',
      '',
    ]) {
      expect(await refund({ orgId, chargeId, amountMinor: 100 }), chargeId).toEqual(refused);
    }
  });

  it('refunds once when many ask for the whole charge at the same time under their own keys', async () => {
    const { orgId, chargeId } = await succeededCharge(5_000);
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => refund({ orgId, chargeId, amountMinor: 5_000 })),
    );
    expect(outcomes.filter((o) => o.status === 'refunded')).toHaveLength(1);
    expect(outcomes.filter((o) => o.status === 'refused')).toHaveLength(19);
    expect(await refundsOf(chargeId)).toHaveLength(1);
  });
});
