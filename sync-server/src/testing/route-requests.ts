import fc from 'fast-check';
import type { FastifySchema } from 'fastify';
import { z } from 'zod';
import {
  hostileRawBody,
  hostileString,
  hostileValue,
  percentEncode,
  queryStringOf,
} from './hostile-values.ts';
import type { RouteContract } from '../plugins/route-contracts.ts';
import { arbitraryOf, type ArbitraryOptions } from './schema-arbitrary.ts';

/*
 * What the route fuzzer (app.fuzz.test.ts) sends each route, read from the schemas the route
 * declares (`app.routeContracts`): values mostly valid for them — so that requests reach the
 * services and the database — and hostile ones. A route without a body or query schema still
 * gets arbitrary JSON and hostile bodies.
 */

const FORM = 'application/x-www-form-urlencoded';

/** The zod schemas of a declared body: one, or one per content type (`body.content`). */
export function bodySchemasOf(schema: FastifySchema | undefined): z.ZodType[] {
  const body = schema?.body;
  if (body instanceof z.ZodType) return [body];
  const content = (body as { content?: Record<string, { schema: unknown }> } | undefined)?.content;
  return Object.values(content ?? {})
    .map((entry) => entry.schema)
    .filter((entry): entry is z.ZodType => entry instanceof z.ZodType);
}

export function querySchemasOf(schema: FastifySchema | undefined): z.ZodType[] {
  return schema?.querystring instanceof z.ZodType ? [schema.querystring] : [];
}

/** Browser form posts (a body schema for form content): sent as forms more often. */
const takesForms = (schema: FastifySchema | undefined) =>
  Boolean((schema?.body as { content?: Record<string, unknown> } | undefined)?.content?.[FORM]);

/** The kiosk's own routes answer its credential, not a staff session. */
export const kioskRoutes = new Set([
  'GET /api/kiosk',
  'POST /api/kiosk/verify-pin',
  'POST /api/kiosk/leave',
]);
/** A live stream answers 200 and stays open; its only input is the session. */
export const notFuzzed = new Set(['GET /api/sync/stream']);

export type FuzzRequest = { url: string; contentType?: string; payload?: string | Buffer };

/** Keeps a failing example's report readable when it carries a megabyte of text. */
export function describeRequest(request: FuzzRequest): string {
  const payload = request.payload === undefined ? '' : String(request.payload);
  const cut = (text: string) =>
    text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text;
  return `${cut(request.url)} [${request.contentType ?? 'no body'}] ${cut(payload)}`;
}

export type FuzzContext = ArbitraryOptions & {
  /** Real values for path parameters, by name (`:rosterId` → an existing roster id). */
  params: Record<string, readonly string[]>;
};

const segmentOf = (context: FuzzContext, name: string) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...(context.params[name] ?? ['x'])) },
    { weight: 1, arbitrary: hostileString.filter((s) => s.length < 2000).map(percentEncode) },
  );

/** Requests for one route: its path with real or hostile parameters, a query, and a body. */
export function requestsFor(route: RouteContract, context: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const params = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1] ?? '');
  const path = fc
    .tuple(...params.map((param) => segmentOf(context, param)))
    .map((parts) => parts.reduce((url, part, i) => url.replace(`:${params[i]}`, part), route.url));
  const fromSchemas = (schemas: z.ZodType[]) =>
    schemas.length ? fc.oneof(...schemas.map((s) => arbitraryOf(s, context))) : hostileValue;
  const query = fc.oneof(
    { weight: 3, arbitrary: fromSchemas(querySchemasOf(route.schema)) },
    {
      weight: 1,
      arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), hostileValue, { maxKeys: 3 }),
    },
  );
  const url = fc.tuple(path, query).map(([p, q]) => `${p}?${queryStringOf(q)}`);
  if (route.method === 'GET') return url.map((u) => ({ url: u }));
  const asJson = (value: unknown) => ({
    contentType: 'application/json',
    payload: JSON.stringify(value) ?? 'null',
  });
  const bodies = [
    { weight: 6, arbitrary: fromSchemas(bodySchemasOf(route.schema)).map(asJson) },
    { weight: 1, arbitrary: hostileValue.map(asJson) },
    {
      weight: 1,
      arbitrary: hostileRawBody.map((payload) => ({ contentType: 'application/json', payload })),
    },
    {
      weight: takesForms(route.schema) ? 3 : 1,
      arbitrary: fromSchemas(bodySchemasOf(route.schema)).map((value) => ({
        contentType: FORM,
        payload: queryStringOf(value),
      })),
    },
    {
      weight: 1,
      arbitrary: hostileRawBody.map((payload) => ({
        contentType: 'application/octet-stream',
        payload,
      })),
    },
  ];
  return fc.tuple(url, fc.oneof(...bodies)).map(([u, body]) => ({ url: u, ...body }));
}
