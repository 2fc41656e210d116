import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  couponIdParamsSchema,
  productIdParamsSchema,
} from '@platform/schema/payments/catalogue.zod';
import { couponInputSchema, productInputSchema } from '@platform/schema/payments/products.zod';
import {
  archiveCoupon,
  archiveProduct,
  catalogueOf,
  couponView,
  createCoupon,
  createProduct,
  productView,
  updateProduct,
} from './catalogue.service.ts';
import { paymentProcessorResponseSchema } from '@platform/schema/payments/processor.zod';
import { requirePaymentProcessing } from '../adapters/payments/none.ts';
import { enforce } from '../rate-limits/rate-limits.ts';
import { requireSession } from '../plugins/session.ts';
import { requireCatalogueManager } from './payments.access.ts';
import { catalogueLimits } from './payments.limits.ts';

/** The catalogue routes read nothing before the claim is checked (403 before 400). */
const managerFirst = async (request: FastifyRequest) => {
  await requireCatalogueManager(request);
};

/**
 * Products and coupons (issue 15), for staff with manage-products in the session's
 * organisation. The processor is the app's (buildApp's `paymentProcessor`).
 */
export async function paymentsRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const processor = app.paymentProcessor;

  // Which processor takes cards (decision 0061), for any signed-in screen that offers a card
  // form or a charge: the sandbox is labelled, none says 'Payment processing not available'.
  api.get(
    '/api/payment-processor',
    { schema: { response: { 200: paymentProcessorResponseSchema } } },
    async (request) => {
      await requireSession(request);
      return {
        processor: processor.kind,
        stripePublishableKey:
          processor.kind === 'stripe' ? (app.config.stripe?.publishableKey ?? null) : null,
      };
    },
  );

  api.get('/api/catalogue', async (request) =>
    catalogueOf(app.db, processor, await requireCatalogueManager(request)),
  );

  api.post(
    '/api/catalogue/products',
    { schema: { body: productInputSchema }, preValidation: managerFirst },
    async (request, reply) => {
      const actor = await requireCatalogueManager(request);
      // A product is created at the processor first (its stripeProductId): none, no product
      // (decision 0061).
      requirePaymentProcessing(processor);
      await enforce(app.db, [{ rule: catalogueLimits.createProduct, subject: actor.userId }]);
      const product = await createProduct(app.db, processor, actor, request.body);
      return reply.code(201).send(productView(product));
    },
  );

  api.put(
    '/api/catalogue/products/:productId',
    {
      schema: { params: productIdParamsSchema, body: productInputSchema },
      preValidation: managerFirst,
    },
    async (request) => {
      const actor = await requireCatalogueManager(request);
      return productView(
        await updateProduct(app.db, actor, request.params.productId, request.body),
      );
    },
  );

  api.post(
    '/api/catalogue/products/:productId/archive',
    { schema: { params: productIdParamsSchema }, preValidation: managerFirst },
    async (request) => {
      const actor = await requireCatalogueManager(request);
      return productView(await archiveProduct(app.db, actor, request.params.productId));
    },
  );

  api.post(
    '/api/catalogue/coupons',
    { schema: { body: couponInputSchema }, preValidation: managerFirst },
    async (request, reply) => {
      const actor = await requireCatalogueManager(request);
      return reply.code(201).send(couponView(await createCoupon(app.db, actor, request.body)));
    },
  );

  api.post(
    '/api/catalogue/coupons/:couponId/archive',
    { schema: { params: couponIdParamsSchema }, preValidation: managerFirst },
    async (request) => {
      const actor = await requireCatalogueManager(request);
      return couponView(await archiveCoupon(app.db, actor, request.params.couponId));
    },
  );
}
