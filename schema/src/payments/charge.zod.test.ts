import { describe, expect, it } from 'vitest';
import { cardMessages, readCardForm } from './charge.zod.ts';

describe('readCardForm (every card form)', () => {
  it('reads a card typed with spaces and a two-digit year', () => {
    expect(readCardForm({ number: '4242 4242 4242 4242', expiry: '12/34', cvc: ' 123 ' })).toEqual({
      ok: true,
      card: { number: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '123' },
    });
  });

  it('says which box is wrong, each with its own message', () => {
    expect(readCardForm({ number: 'abc', expiry: '13/34', cvc: '1' })).toEqual({
      ok: false,
      errors: { number: cardMessages.number, expiry: cardMessages.expiry, cvc: cardMessages.cvc },
    });
    expect(readCardForm({ number: '4242424242424242', expiry: '', cvc: '123' })).toEqual({
      ok: false,
      errors: { expiry: cardMessages.expiry },
    });
  });
});
