import { fullName } from '@platform/schema/app/full-name.rules';
import { hasAnyClaim } from '@platform/schema/organizations/claims';
import { subscriptionsOverviewClaims } from '@platform/schema/payments/subscriptions-overview.zod';
import type { FastifyRequest } from 'fastify';
import { Forbidden } from '../plugins/domain-errors.ts';
import { requireSession } from '../plugins/session.ts';
import type { CatalogueActor } from './catalogue.service.ts';

export const PRODUCTS_CLAIM = 'manage-products';

/**
 * Staff with manage-products in the session's organisation, org view. Everything the catalogue
 * routes read or write is filtered by this orgId, so another organisation's ids answer 404.
 */
export async function requireCatalogueManager(request: FastifyRequest): Promise<CatalogueActor> {
  const { session, user, claims } = await requireSession(request);
  if (session.view !== 'org' || !session.orgId || !claims.includes(PRODUCTS_CLAIM)) {
    throw new Forbidden('You cannot manage this organisation’s products.');
  }
  return { orgId: session.orgId, userId: user.id };
}

export const SELL_CLAIM = 'manage-point-of-sale';

/** Staff who sell: they charge customers from the CRM and at the point of sale. */
export type Seller = {
  orgId: string;
  userId: string;
  name: string;
  /** The admin at the keyboard of an impersonated session, named in audit rows beside them. */
  impersonatorUserId?: string | null;
};

/**
 * spec §2 'Charge product or subscription': staff with manage-point-of-sale in the session's
 * organisation, org view. Customers, cards and invoices are all looked up within this orgId,
 * so another organisation's ids answer 404.
 */
export async function requireSeller(request: FastifyRequest): Promise<Seller> {
  const { session, user, claims } = await requireSession(request);
  if (session.view !== 'org' || !session.orgId || !claims.includes(SELL_CLAIM)) {
    throw new Forbidden('You cannot charge this organisation’s customers.');
  }
  return {
    orgId: session.orgId,
    userId: user.id,
    name: fullName(user),
    impersonatorUserId: session.impersonatorUserId,
  };
}

/**
 * The subscriptions overview (/dashboard/org-subscription): staff who keep the catalogue or sell
 * (manage-products or manage-point-of-sale), org view. Read within this orgId only.
 */
export async function requireSubscriptionsViewer(
  request: FastifyRequest,
): Promise<{ orgId: string; userId: string }> {
  const { session, user, claims } = await requireSession(request);
  if (
    session.view !== 'org' ||
    !session.orgId ||
    !hasAnyClaim(claims, subscriptionsOverviewClaims)
  ) {
    throw new Forbidden('You cannot see this organisation’s subscriptions.');
  }
  return { orgId: session.orgId, userId: user.id };
}
