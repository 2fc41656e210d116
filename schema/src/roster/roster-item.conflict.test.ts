import { describe, expect, it } from 'vitest';
import { mergeRosterItems } from './roster-item.conflict.ts';

const item = (phone: string | null, tags: string[], updatedAt: string) => ({
  id: 'r1',
  orgId: 'o1',
  athlete: { id: 'u1', fullName: 'A B', firstName: 'A', lastName: 'B', email: null },
  phone,
  tags,
  updatedAt,
  _deleted: false,
});

describe('mergeRosterItems', () => {
  it('merges tag additions and removals from both sides and keeps the phone changed on one side', () => {
    const assumed = item('555-0001', ['vip', 'morning'], '2026-11-20T00:00:00.000Z');
    const master = item('555-0001', ['vip', 'morning', 'kids'], '2026-11-21T00:00:00.000Z'); // another desk added 'kids'
    const local = item('555-0002', ['vip'], '2026-11-22T00:00:00.000Z'); // this desk removed 'morning', changed the phone
    const merged = mergeRosterItems(master, local, assumed);
    expect(merged.phone).toBe('555-0002');
    expect(merged.tags.sort()).toEqual(['kids', 'vip']);
  });

  it('keeps a phone changed later on the server', () => {
    const assumed = item('1', [], '2026-11-20T00:00:00.000Z');
    const merged = mergeRosterItems(item('3', [], '2026-11-23T00:00:00.000Z'), item('2', [], '2026-11-22T00:00:00.000Z'), assumed);
    expect(merged.phone).toBe('3');
  });

  it('adds a tag once whatever its case: the master’s spelling wins (issue 14)', () => {
    const assumed = item(null, ['am'], '2026-11-20T00:00:00.000Z');
    const master = item(null, ['am', 'vip'], '2026-11-21T00:00:00.000Z'); // another desk: 'vip'
    const local = item(null, ['AM', 'VIP'], '2026-11-22T00:00:00.000Z'); // this desk: 'VIP'
    expect(mergeRosterItems(master, local, assumed).tags).toEqual(['am', 'vip']);
    // Removing 'AM' here removes the master's 'am'.
    const removed = item(null, ['VIP'], '2026-11-22T00:00:00.000Z');
    expect(mergeRosterItems(master, removed, assumed).tags).toEqual(['vip']);
  });
});
