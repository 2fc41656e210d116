import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CouponInput, ProductInput } from '@platform/schema/payments/products.zod';
import {
  archiveCoupon,
  archiveProduct,
  createCoupon,
  createProduct,
  getCatalogue,
  updateProduct,
} from '../api/catalogue.ts';

/** The catalogue is server state for staff (TanStack Query), refetched after each change. */
export const catalogueKey = (orgId: string) => ['catalogue', orgId] as const;

export function useCatalogue(orgId: string) {
  return useQuery({ queryKey: catalogueKey(orgId), queryFn: ({ signal }) => getCatalogue(signal) });
}

export function useCatalogueChanges(orgId: string) {
  const queryClient = useQueryClient();
  const settled = () => queryClient.invalidateQueries({ queryKey: catalogueKey(orgId) });
  return {
    saveProduct: useMutation({
      mutationFn: ({ productId, input }: { productId: string | null; input: ProductInput }) =>
        productId ? updateProduct(productId, input) : createProduct(input),
      onSettled: settled,
    }),
    archiveProduct: useMutation({ mutationFn: archiveProduct, onSettled: settled }),
    createCoupon: useMutation({
      mutationFn: (input: CouponInput) => createCoupon(input),
      onSettled: settled,
    }),
    archiveCoupon: useMutation({ mutationFn: archiveCoupon, onSettled: settled }),
  };
}
export type CatalogueChanges = ReturnType<typeof useCatalogueChanges>;
