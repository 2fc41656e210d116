import type { CollectionName } from '@platform/schema/sync/collections';
import type { Person } from '../../../sync-server/src/testing/sync-fixtures.ts';
import { openAccountDatabase } from '../db/database.ts';
import { startSync } from './replication.ts';

/**
 * For tests (fake-indexeddb, a real server): a device of `who` — its own local database, and
 * a fetch that keeps its cookies as a browser does (set, replaced, cleared by the server) and
 * can go offline. `through` puts something on the way to the server (a proxy with its own body
 * limit, a recorder of what was sent).
 */
export async function openTestDevice(
  label: string,
  who: Person,
  base: string,
  options: {
    collections?: CollectionName[];
    through?: (send: typeof fetch) => typeof fetch;
  } = {},
) {
  const link = { online: true };
  const cookies = new Map(
    (who.jar.headers().cookie ?? '')
      .split('; ')
      .filter(Boolean)
      .map((pair) => pair.split('=') as [string, string]),
  );
  const send = options.through ? options.through(fetch) : fetch;
  const deviceFetch: typeof fetch = async (input, init) => {
    if (!link.online) throw new TypeError('Failed to fetch');
    const headers = new Headers(init?.headers);
    headers.set('cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const response = await send(input, { ...init, headers });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const [name = '', value = ''] = pair.split('=');
      if (!value || attributes.some((a) => /max-age=0/i.test(a.trim()))) cookies.delete(name);
      else cookies.set(name, value);
    }
    return response;
  };
  const collections = options.collections ?? ['time-entries'];
  const db = await openAccountDatabase(`${who.id}${label}`, { multiInstance: false, collections });
  const sync = startSync(db, {
    collections,
    baseUrl: base,
    fetch: deviceFetch,
    waitForLeadership: false,
    retryTime: 200,
  });
  return { db, sync, link, cookies };
}

/** Polls `check` until it holds, or fails the test after `ms`. */
export async function until(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not met in time');
}
