import { describe, expect, it } from 'vitest';
import {
  cardExpiry,
  cardName,
  cardsOnFile,
  isCardExpired,
  isRenewing,
} from './card-on-file.rules.ts';

const visa = { brand: 'Visa', last4: '4242', expMonth: 12, expYear: 2030 };
const master = { brand: 'Mastercard', last4: '4444', expMonth: 3, expYear: 2031 };
const ann = 'ann';

describe('the card on file', () => {
  it('names a card and its expiry as the card does', () => {
    expect(cardName(visa)).toBe('Visa •••• 4242');
    expect(cardExpiry(visa)).toBe('12/30');
    expect(cardExpiry({ expMonth: 3, expYear: 2105 })).toBe('03/05');
  });

  it('is good through the last day of its expiry month', () => {
    expect(isCardExpired({ expMonth: 5, expYear: 2026 }, '2026-05-31')).toBe(false);
    expect(isCardExpired({ expMonth: 5, expYear: 2026 }, '2026-06-01')).toBe(true);
    expect(isCardExpired({ expMonth: 12, expYear: 2025 }, '2026-01-01')).toBe(true);
    expect(isCardExpired({ expMonth: 1, expYear: 2027 }, '2026-12-31')).toBe(false);
  });

  it('counts only subscriptions that will charge again', () => {
    expect(['scheduled', 'active', 'past-due'].every((s) => isRenewing(s as never))).toBe(true);
    expect(isRenewing('cancel-at-period-end')).toBe(false);
    expect(isRenewing('cancelled')).toBe(false);
  });

  it('lists each card of a person’s renewing subscriptions once, with what it pays for', () => {
    const cards = cardsOnFile(
      [
        { customerUserId: ann, status: 'active', card: visa, productName: 'Unlimited' },
        { customerUserId: ann, status: 'past-due', card: { ...visa }, productName: 'Yoga' },
        { customerUserId: ann, status: 'scheduled', card: master, productName: 'Swim' },
        // Not charged again, paid outside the platform, or another person's: not on file here.
        { customerUserId: ann, status: 'cancel-at-period-end', card: master, productName: 'Old' },
        { customerUserId: ann, status: 'active', card: null, productName: 'Cash' },
        { customerUserId: 'kid', status: 'active', card: master, productName: 'Kids' },
      ],
      ann,
    );
    expect(cards).toEqual([
      { card: visa, productNames: ['Unlimited', 'Yoga'], pastDue: true },
      { card: master, productNames: ['Swim'], pastDue: false },
    ]);
    expect(cardsOnFile([], ann)).toEqual([]);
  });
});
