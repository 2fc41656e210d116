import { firstValueFrom, filter } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, listenOnLoopback } from '../../../sync-server/src/testing/test-app.ts';
import { seedSyncOrg } from '../../../sync-server/src/testing/sync-fixtures.ts';
import { openChangeStream } from './change-stream.ts';

describe('the live stream when the server restarts', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let base = '';
  let cookie = '';
  beforeAll(async () => {
    t = await createTestApp('pglite');
    const org = await seedSyncOrg(t.app, t.db);
    cookie = org.manager.jar.headers().cookie ?? '';
    base = await listenOnLoopback(t.app);
  });
  afterAll(() => t.database.close());

  // Issue 11: a draining server ends the stream with `event: reconnect` and a wait; the
  // device stays away that long (spread out), not the second after, while the server stops.
  it('comes back after the wait the server asks for, not at once', async () => {
    const attempts: number[] = [];
    const stream = openChangeStream({
      url: `${base}/api/sync/stream`,
      fetch: (input, init) => {
        attempts.push(Date.now());
        const headers = new Headers(init?.headers);
        headers.set('cookie', cookie);
        return fetch(input, { ...init, headers });
      },
    });
    try {
      await firstValueFrom(stream.signals.pipe(filter((s) => s.kind === 'resync')));
      const closed = firstValueFrom(stream.states.pipe(filter((s) => s === 'closed')));
      await t.app.close();
      await closed;
      const closedAt = Date.now();
      // Plain backoff would have tried again after a second.
      await new Promise((r) => setTimeout(r, 4_500));
      expect(attempts.filter((at) => at > closedAt)).toEqual([]);
    } finally {
      stream.close();
    }
  }, 30_000);
});
