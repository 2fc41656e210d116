import { cardMessages } from './card-messages.ts';

/**
 * The sandbox's test cards: the card networks' well-known test numbers behave as they do at
 * Stripe (4242… succeeds, 4000…0002 is declined, 4000 0025 0000 3155 asks for the bank's
 * confirmation). Any other number is refused, so nobody types a real card into a sandbox.
 */
export type SandboxBehaviour =
  'succeeds' | 'declined' | 'insufficient-funds' | 'requires-authentication';

export const sandboxTestCards: ReadonlyArray<{
  number: string;
  brand: string;
  behaviour: SandboxBehaviour;
  label: string;
}> = [
  { number: '4242424242424242', brand: 'Visa', behaviour: 'succeeds', label: 'Succeeds' },
  { number: '5555555555554444', brand: 'Mastercard', behaviour: 'succeeds', label: 'Succeeds' },
  { number: '4000000000000002', brand: 'Visa', behaviour: 'declined', label: 'Declined' },
  {
    number: '4000000000009995',
    brand: 'Visa',
    behaviour: 'insufficient-funds',
    label: 'Insufficient funds',
  },
  {
    number: '4000002500003155',
    brand: 'Visa',
    behaviour: 'requires-authentication',
    label: 'Needs the bank’s confirmation',
  },
];

export const sandboxMessages = {
  ...cardMessages,
  notATestCard: 'This is the sandbox: use a test card such as 4242 4242 4242 4242.',
  numberOnly:
    'This is the sandbox: it takes a test card number from its own form, not a card saved at Stripe.',
  requiresAuthentication:
    'Your bank asks to confirm this payment, which the sandbox cannot show. Use another test card.',
  refundRefused: 'This payment cannot be refunded: it was already refunded, or never taken.',
} as const;

export function sandboxCardOf(number: string) {
  const digits = number.replace(/[\s-]/g, '');
  return sandboxTestCards.find((card) => card.number === digits) ?? null;
}
