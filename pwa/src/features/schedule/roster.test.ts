import { describe, expect, it } from 'vitest';
import { rosterStatus } from './roster.ts';

describe('the roster names how each place was paid', () => {
  it.each([
    [{ status: 'booked', paidWith: 'card' }, 'Booked · paid by card'],
    [{ status: 'attended', paidWith: 'card' }, 'Checked in · paid by card'],
    [{ status: 'booked', paidWith: 'credit' }, 'Booked · credit'],
    [{ status: 'booked', paidWith: 'subscription' }, 'Booked · membership'],
    [{ status: 'no-show', paidWith: 'desk' }, 'No-show · pay at desk'],
    [{ status: 'booked', paidWith: 'free' }, 'Booked'],
    [{ status: 'requested', paidWith: null }, 'Pending'],
    [{ status: 'waitlisted', paidWith: null }, 'Waitlisted'],
  ] as const)('%o → %s', (booking, text) => {
    expect(rosterStatus(booking)).toBe(text);
  });
});
