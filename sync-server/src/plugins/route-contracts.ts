import type {
  FastifyInstance,
  FastifyRequest,
  FastifySchema,
  FastifySchemaCompiler,
} from 'fastify';
import fp from 'fastify-plugin';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { DomainError } from './domain-errors.ts';

/** A route as declared: its method, path and the zod schemas of its input (and output). */
export type RouteContract = { method: string; url: string; schema: FastifySchema | undefined };

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route the app declares, with its schemas (the route fuzzer reads them). */
    routeContracts: readonly RouteContract[];
  }
  interface FastifyContextConfig {
    /**
     * How this route answers input its schema refuses, when its forms read a shape of their
     * own (spec §7 signup, §8 families): the domain error the ZodError becomes (or the
     * ZodError itself, for the general 400). The one error map (http-map.ts) asks it.
     */
    invalidInput?: (error: z.ZodError, request: FastifyRequest) => DomainError | z.ZodError;
  }
}

/**
 * Validates a request part with its zod schema, keeping the parsed value (transforms, defaults)
 * and handing the ZodError itself to the error map — not the type provider's own
 * `validatorCompiler`, whose Ajv-like issue list turns `path: ['children', 0]` into
 * `'/children/0'`: the answers' `issues` and field errors stay what they were when routes
 * parsed by hand. Fastify marks it `FST_ERR_VALIDATION` with its `validationContext`.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data) => {
    const result = schema.safeParse(data);
    return result.success ? { value: result.data } : { error: result.error };
  };

/**
 * Routes declare `schema: { body, querystring, params }` with the zod schemas of `schema/`
 * (through fastify-type-provider-zod's `ZodTypeProvider`); this plugin compiles them and keeps
 * the list of declared routes. Registered before any route.
 */
export const routeContractsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setValidatorCompiler(zodValidatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    const contracts: RouteContract[] = [];
    app.decorate('routeContracts', contracts);
    app.addHook('onRoute', (route) => {
      // HEAD routes are Fastify's copies of the GET ones.
      for (const method of [route.method].flat())
        if (method !== 'HEAD') contracts.push({ method, url: route.url, schema: route.schema });
    });
  },
  { name: 'route-contracts' },
);
