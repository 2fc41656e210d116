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
