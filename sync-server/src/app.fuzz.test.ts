import fc from 'fast-check';
import { createLocalJWKSet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionNames } from '@platform/schema/sync/collections';
import { asKiosk, newManager, startTestKiosk } from './kiosk/kiosk.fixtures.ts';
import type { RouteContract } from './plugins/route-contracts.ts';
import {
  bodySchemasOf,
  describeRequest,
  kioskRoutes,
  notFuzzed,
  querySchemasOf,
  requestsFor,
  type FuzzContext,
} from './testing/route-requests.ts';
import { createTestApp } from './testing/test-app.ts';
import { testDatabaseKinds } from './testing/test-database.ts';
import { seedSyncOrg } from './testing/sync-fixtures.ts';

/**
 * Requests per route: PostgreSQL is the production database, PGlite the embedded one. About
 * 85 s for both on a 2-core machine; FUZZ_RUNS_SCALE=20 makes a longer hunt (fast-check prints
 * the seed of a failure: `{ seed, path }` in fc.assert's options replays it).
 */
const scale = Number(process.env.FUZZ_RUNS_SCALE ?? 1);
const RUNS = { postgres: 25 * scale, pglite: 8 * scale };

// Issue 11: every route, fed what a hostile or broken client may send, answers below 500 —
// signed in as staff holding every claim, so requests get past access checks into the
// services and the database.
describe.each(testDatabaseKinds)('every route on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Awaited<ReturnType<typeof seedSyncOrg>>;
  let kioskHeaders: Record<string, string> = {};
  let routes: readonly RouteContract[] = [];
  let context: FuzzContext;

  beforeAll(async () => {
    t = await createTestApp(kind, { googleKeys: createLocalJWKSet({ keys: [] }) });
    a = await seedSyncOrg(t.app, t.db);
    const added = await t.app.inject({
      method: 'POST',
      url: '/api/crm/customers',
      headers: a.manager.jar.headers(),
      payload: { customerEmail: 'fuzzed@example.test', sendInviteEmails: false },
    });
    const customer = added.json<{ id: string; athlete: { id: string } }>();
    kioskHeaders = asKiosk((await startTestKiosk(t.app, t.db, a.org.id)).jar) as Record<
      string,
      string
    >;
    context = {
      knownIds: [a.org.id, a.manager.id, a.staff.id, a.childId, customer.id, customer.athlete.id],
      hostileOneIn: 8,
      params: {
        collection: collectionNames,
        rosterId: [customer.id],
        userId: [a.staff.id],
        orgId: [a.org.id],
        version: ['1'],
        file: ['icon-192.png', 'manifest.webmanifest', `${a.org.id}.webmanifest`],
      },
    };
    // The routes as the app declares them, with their zod schemas: nothing kept by hand.
    routes = t.app.routeContracts;
  });
  afterAll(() => t.close());

  it('reads the routes and their schemas from the app', () => {
    const names = new Set(routes.map((route) => `${route.method} ${route.url}`));
    for (const name of [...kioskRoutes, ...notFuzzed]) expect(names, name).toContain(name);
    const withBody = routes.filter((route) => bodySchemasOf(route.schema).length);
    const withQuery = routes.filter((route) => querySchemasOf(route.schema).length);
    expect(withBody.length).toBeGreaterThan(20);
    expect(withQuery.length).toBeGreaterThan(4);
  });

  it(
    'answers every route below 500, whatever the body and query',
    async () => {
      const fuzzed = routes.filter((route) => !notFuzzed.has(`${route.method} ${route.url}`));
      expect(fuzzed.length).toBeGreaterThan(40);
      for (const route of fuzzed) {
        const name = `${route.method} ${route.url}`;
        // Own staff member per route: a route that ends the session (log-out, kiosk start)
        // leaves the next one signed in.
        const headers = kioskRoutes.has(name)
          ? kioskHeaders
          : (await newManager(t.app, t.db, a.org.id)).jar.headers();
        await fc.assert(
          fc.asyncProperty(requestsFor(route, context), async (request) => {
            const res = await t.app.inject({
              method: route.method as 'GET',
              url: request.url,
              headers: {
                ...headers,
                ...(request.contentType ? { 'content-type': request.contentType } : {}),
              },
              ...(request.payload === undefined ? {} : { payload: request.payload }),
            });
            if (res.statusCode >= 500)
              throw new Error(
                `${route.method} ${describeRequest(request)} answered ${res.statusCode}`,
              );
          }),
          { numRuns: RUNS[kind], endOnFailure: true },
        );
      }
    },
    300_000 * scale,
  );
});
