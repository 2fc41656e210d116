import type { ReactNode } from 'react';

/**
 * The product part of the Add customer dialog (spec §2 Invite-to-product), filled in app/ from
 * features/products: the CRM knows nothing of products, only whether the part's answers are
 * ready and how to send them once the customer exists.
 */
export type ProductPartState = {
  /** false while a required answer is invalid: the create button stays disabled (spec §5). */
  ready: boolean;
  /** Sends the invitation to this customer and answers the message to show; null = no product. */
  send: ((rosterId: string) => Promise<string>) | null;
};

/** Renders the part; it reports its state whenever its answers change. */
export type ProductPart = (report: (state: ProductPartState) => void) => ReactNode;

export const noProductPart: ProductPartState = { ready: true, send: null };
