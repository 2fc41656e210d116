import {
  catalogueResponseSchema,
  couponSchema,
  productSchema,
  type CatalogueCoupon,
  type CatalogueProduct,
  type CatalogueResponse,
} from '@platform/schema/payments/catalogue.zod';
import type { CouponInput, ProductInput } from '@platform/schema/payments/products.zod';
import { api } from '../../../lib/api.ts';

/** GET /api/catalogue: the session organisation's products and coupons (claim manage-products). */
export function getCatalogue(signal?: AbortSignal): Promise<CatalogueResponse> {
  return api('/api/catalogue', { schema: catalogueResponseSchema, ...(signal ? { signal } : {}) });
}

export function createProduct(input: ProductInput): Promise<CatalogueProduct> {
  return api('/api/catalogue/products', { json: input, schema: productSchema });
}

export function updateProduct(productId: string, input: ProductInput): Promise<CatalogueProduct> {
  return api(`/api/catalogue/products/${encodeURIComponent(productId)}`, {
    method: 'PUT',
    json: input,
    schema: productSchema,
  });
}

export function archiveProduct(productId: string): Promise<CatalogueProduct> {
  return api(`/api/catalogue/products/${encodeURIComponent(productId)}/archive`, {
    method: 'POST',
    json: {},
    schema: productSchema,
  });
}

export function createCoupon(input: CouponInput): Promise<CatalogueCoupon> {
  return api('/api/catalogue/coupons', { json: input, schema: couponSchema });
}

export function archiveCoupon(couponId: string): Promise<CatalogueCoupon> {
  return api(`/api/catalogue/coupons/${encodeURIComponent(couponId)}/archive`, {
    method: 'POST',
    json: {},
    schema: couponSchema,
  });
}
