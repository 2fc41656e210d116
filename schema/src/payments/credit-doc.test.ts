import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { creditBalances } from './credit-doc.zod.ts';

const kit = '00000000-0000-4000-8000-00000000000a';
const mia = '00000000-0000-4000-8000-00000000000b';
const classes = '00000000-0000-4000-8000-0000000000c1';
const gym = '00000000-0000-4000-8000-0000000000c2';
const row = (
  customerUserId: string,
  groupId: string,
  delta: number,
  createdAt: string,
  names: { groupName?: string; productName?: string } = {},
) => ({
  customerUserId,
  groupId,
  delta,
  createdAt,
  groupName: names.groupName ?? (groupId === classes ? 'Classes' : 'Open gym'),
  productName: names.productName ?? '10-class pack',
});

describe('creditBalances', () => {
  it('sums each person’s group, counts what was given, and sorts by group name', () => {
    expect(
      creditBalances([
        row(kit, classes, 10, '2026-11-01T10:00:00.000Z'),
        row(kit, classes, -1, '2026-11-02T10:00:00.000Z'),
        row(kit, gym, 2, '2026-11-01T10:00:00.000Z'),
        row(mia, classes, 5, '2026-11-03T10:00:00.000Z'),
        row(kit, classes, -2, '2026-11-04T10:00:00.000Z'),
      ]),
    ).toEqual([
      expect.objectContaining({ customerUserId: kit, groupName: 'Classes', balance: 7, given: 10 }),
      expect.objectContaining({ customerUserId: mia, groupName: 'Classes', balance: 5, given: 5 }),
      expect.objectContaining({ customerUserId: kit, groupName: 'Open gym', balance: 2, given: 2 }),
    ]);
  });

  it('names a group as the latest credits given named it, not as a use did', () => {
    const [balance] = creditBalances([
      row(kit, classes, 10, '2026-11-01T10:00:00.000Z', { groupName: 'Classes' }),
      row(kit, classes, 10, '2026-11-05T10:00:00.000Z', {
        groupName: 'Group classes',
        productName: '20-class pack',
      }),
      row(kit, classes, -1, '2026-11-06T10:00:00.000Z', { groupName: 'Old name' }),
    ]);
    expect(balance).toMatchObject({
      groupName: 'Group classes',
      productName: '20-class pack',
      balance: 19,
      given: 20,
    });
  });

  it('keeps balance = the sum of a group’s rows and given ≥ balance, in any order', () => {
    const deltas = fc.array(
      fc.integer({ min: -50, max: 50 }).filter((d) => d !== 0),
      { maxLength: 40 },
    );
    fc.assert(
      fc.property(deltas, (list) => {
        const rows = list.map((delta, i) =>
          row(kit, classes, delta, new Date(Date.UTC(2026, 0, 1 + i)).toISOString()),
        );
        const [balance] = creditBalances([...rows].reverse());
        if (list.length === 0) return balance === undefined;
        const sum = list.reduce((a, b) => a + b, 0);
        const given = list.filter((d) => d > 0).reduce((a, b) => a + b, 0);
        return balance?.balance === sum && balance.given === given && given >= sum;
      }),
    );
  });
});
