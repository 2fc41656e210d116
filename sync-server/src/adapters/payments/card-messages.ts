/** What a card's refusal says to the person paying, whichever processor refused it. */
export const cardMessages = {
  expired: 'Your card has expired.',
  cvcInvalid: 'Your card’s security code is invalid.',
  declined: 'Your card was declined.',
  insufficientFunds: 'Your card has insufficient funds.',
} as const;
