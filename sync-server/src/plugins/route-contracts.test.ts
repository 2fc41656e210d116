import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionNames } from '@platform/schema/sync/collections';
import { familyMessages } from '@platform/schema/families/families.messages';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';

// Issue 13: routes declare their zod schemas; their refusals answer as when routes parsed by hand.
describe.each(testDatabaseKinds)('route contracts on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  const post = (url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, payload: payload as object });

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('answers a malformed input of a signed-in route with 401 when no one is signed in', async () => {
    const collection = collectionNames[0];
    const answers = await Promise.all([
      post('/api/time-tracking', { action: 42 }),
      post('/api/guardians', { action: 'nothing' }),
      post('/api/settings', []),
      post('/api/notifications', { action: 1 }),
      post('/api/me/attributes', { attributes: 1 }),
      post('/api/auth/create-account', { action: 'create-children', signupDtos: 'x' }),
      post('/api/crm/customers/some-id/notes', { body: 1 }),
      post(`/api/sync/${collection}/push`, { not: 'an array' }),
      t.app.inject({ method: 'GET', url: `/api/sync/${collection}/pull?batchSize=x` }),
      t.app.inject({ method: 'GET', url: '/api/time-tracking/people?orgId=x' }),
    ]);
    expect(answers.map((res) => res.statusCode)).toEqual(answers.map(() => 401));
  });

  it('answers the general 400 with zod’s issues and field errors', async () => {
    const res = await post('/api/auth/forgot-password', { email: 42 });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toMatchObject({ error: 'Bad Request', message: 'The request is invalid.' });
    expect(body.issues[0].path).toEqual(['email']);
    expect(body.errors[0].field).toBe('email');
  });

  it('answers a route’s own shape for its refused input: families, signup', async () => {
    const family = await post('/api/auth/create-account', {
      action: 'validate-child',
      children: 'none',
    });
    expect(family.statusCode).toBe(400);
    expect(family.json().message).toBe(familyMessages.formInvalid);
    expect(family.json().errors[0].field).toBe('children');
    const signup = await post('/api/auth/create-account', { action: 'signup', signupDto: {} });
    expect(signup.statusCode).toBe(400);
    expect(signup.json()).toMatchObject({ success: false, errorType: 'validation' });
    // Fields are named inside signupDto, as the signup form reads them.
    expect(signup.json().errors.map((e: { field: string }) => e.field)).toContain('email');
  });

  it('lists every route with its schemas', () => {
    const route = t.app.routeContracts.find(
      (r) => r.method === 'POST' && r.url === '/api/time-tracking',
    );
    expect(route?.schema?.body).toBeDefined();
    expect(t.app.routeContracts.some((r) => r.method === 'HEAD')).toBe(false);
  });
});
