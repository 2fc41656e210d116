import { describe, expect, it } from 'vitest';
import type { RosterItemDoc } from '@platform/schema/roster/roster-item.zod';
import { searchLocalRoster } from './local-roster-search.ts';

const item = (
  id: string,
  first: string,
  last: string,
  email: string,
  phone: string | null,
  tags: string[] = [],
): RosterItemDoc => ({
  id,
  orgId: '00000000-0000-4000-8000-000000000000',
  athlete: {
    id: `00000000-0000-4000-8000-00000000000${id}`,
    firstName: first,
    lastName: last,
    fullName: `${first} ${last}`,
    email,
  },
  phone,
  tags,
  updatedAt: `2026-01-0${id}T00:00:00.000Z`,
});
const roster = [
  item('1', 'Ada', 'Lovelace', 'ada@example.test', '+1 (555) 123-4567', ['vip']),
  item('2', 'Alan', 'Turing', 'alan@computing.test', null),
  item('3', 'Grace', 'Hopper', 'grace@navy.test', '555 987 0000', ['vip']),
  item('4', 'Eve', 'Stored', 'eve@example.test', '+12025550142', []),
];
const search = (q: string, tag?: string) =>
  searchLocalRoster(roster, { q, tag, sort: 'lastName', dir: 'asc' }).map((row) => row.firstName);

describe('searchLocalRoster', () => {
  it('matches prefixes of names, email and phone, case-insensitively', () => {
    expect(search('LOVE')).toEqual(['Ada']);
    expect(search('a')).toEqual(['Ada', 'Alan']);
    expect(search('alan@comp')).toEqual(['Alan']);
    expect(search('555123')).toEqual(['Ada']);
    // Stored in E.164 (issue 14), found by its national groups too.
    expect(search('202 555')).toEqual(['Eve']);
    expect(search('555-01')).toEqual(['Eve']);
    expect(search('grace hop')).toEqual(['Grace']);
    expect(search('ovelace')).toEqual([]);
  });
  it('filters by tag and sorts', () => {
    expect(search('', 'vip')).toEqual(['Grace', 'Ada']);
    expect(search('', 'VIP')).toEqual(['Grace', 'Ada']);
    expect(
      searchLocalRoster(roster, { q: '', sort: 'firstName', dir: 'desc' }).map((r) => r.firstName),
    ).toEqual(['Grace', 'Eve', 'Alan', 'Ada']);
  });
});
