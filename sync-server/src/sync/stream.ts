import type { FastifyReply } from 'fastify';
import { collectionNames } from '@platform/schema/sync/collections';
import {
  STREAM_HEARTBEAT_MS,
  STREAM_RECONNECT_EVENT,
  type StreamReconnect,
} from '@platform/schema/sync/sync.zod';
import { RETRY_AFTER_SECONDS } from '../plugins/http-map.ts';
import type { Actor } from './actor.ts';
import type { ChangeHub, ChangeNotification } from './change-feed.ts';
import { collectionDefinitions } from './collections/definitions.ts';

/**
 * Live streams one session (or one kiosk device) may hold at once. Only the leading tab of a
 * browser replicates, so a person needs one per browser sharing the session, and a few
 * reconnects the server has not yet seen close.
 */
export const MAX_STREAMS_PER_HOLDER = 4;

/** What a stream says when this server goes away on purpose: come back later, elsewhere maybe. */
const reconnectLater: StreamReconnect = { afterMs: RETRY_AFTER_SECONDS * 1000 };
const RECONNECT_LATER = `retry: ${reconnectLater.afterMs}\nevent: ${STREAM_RECONNECT_EVENT}\ndata: ${JSON.stringify(reconnectLater)}\n\n`;

/**
 * The streams this process holds open. Their replies are hijacked, so Fastify's close neither
 * waits for nor ends them: a shutdown ends each itself, with the reconnect hint.
 */
export class OpenStreams {
  private readonly enders = new Set<() => void>();

  add(end: () => void): () => void {
    this.enders.add(end);
    return () => this.enders.delete(end);
  }

  endAll(): void {
    for (const end of [...this.enders]) end();
  }
}

/** Which collections' changes an actor hears about, and whether all of them or only their own. */
function interests(actor: Actor) {
  const result = new Map<
    string,
    { orgId: string; ownerIds: readonly string[] | null; writable: boolean }
  >();
  for (const name of collectionNames) {
    try {
      // A pull's row filter (a kiosk's current bookings) is not the stream's: a change it
      // filters out costs the device one empty pull. It is no value to compare either.
      const { orgId, ownerIds, writable } = collectionDefinitions[name].scopeFor(actor);
      result.set(name, { orgId, ownerIds, writable });
    } catch {
      // Not replicated to this actor: no events either.
    }
  }
  return result;
}

/** The interests compared as a value: collection names, organisation, owners (sorted), writable. */
function interestsKey(scopes: ReturnType<typeof interests>): string {
  return JSON.stringify(
    [...scopes.entries()]
      .sort(([x], [y]) => x.localeCompare(y))
      .map(([name, scope]) => [
        name,
        { ...scope, ownerIds: scope.ownerIds ? [...scope.ownerIds].sort() : null },
      ]),
  );
}

export function concerns(
  change: ChangeNotification,
  scope: { orgId: string; ownerIds: readonly string[] | null } | undefined,
) {
  if (!scope || scope.orgId !== change.orgId) return false;
  if (scope.ownerIds === null || change.ownerIds.length === 0) return true;
  return change.ownerIds.some((id) => scope.ownerIds?.includes(id));
}

/**
 * Server-sent events for one client: `resync` on connect (it may have missed changes while
 * away), `change` per committed change it may see, a heartbeat comment so proxies keep it
 * open, and `resync` again if it fell behind (its socket buffer was full).
 *
 * A stream's scope is fixed when it opens. Each heartbeat asks who the holder is now: a
 * session revoked (signed out, switched away from) or whose scope changed (claims, family)
 * ends the stream, and the client reconnects — with its new scope, or to a 401.
 */
export function openStream(
  reply: FastifyReply,
  hub: ChangeHub,
  actor: Actor,
  options: {
    currentActor: () => Promise<Actor | null>;
    onClose: () => void;
    /** This process's open streams: a shutdown ends each with the reconnect hint. */
    streams: OpenStreams;
  },
) {
  const scopes = interests(actor);
  const scopesKey = interestsKey(scopes);
  const raw = reply.raw;
  reply.hijack();
  raw.writeHead(200, {
    // A refresh made while opening the stream must reach the browser too.
    ...(reply.request.issuedCookies.length ? { 'set-cookie': reply.request.issuedCookies } : {}),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  let behind = false;
  const write = (chunk: string) => {
    if (behind || raw.destroyed) return;
    if (!raw.write(chunk)) {
      behind = true;
      raw.once('drain', () => {
        behind = false;
        write('event: resync\ndata: {}\n\n');
      });
    }
  };
  write('retry: 3000\n\nevent: resync\ndata: {}\n\n');
  const unsubscribe = hub.subscribe(
    (change) => {
      if (concerns(change, scopes.get(change.collection))) {
        write(
          `event: change\ndata: ${JSON.stringify({ collection: change.collection, lsn: change.lsn })}\n\n`,
        );
      }
    },
    () => write('event: resync\ndata: {}\n\n'),
  );
  const heartbeat = setInterval(() => {
    options
      .currentActor()
      .then((now) => {
        if (now && interestsKey(interests(now)) === scopesKey) write(': heartbeat\n\n');
        else raw.end();
      })
      // The database is unreachable for a moment: keep the stream, never crash the process.
      .catch(() => write(': heartbeat\n\n'));
  }, STREAM_HEARTBEAT_MS);
  const forget = options.streams.add(() => {
    behind = false;
    write(RECONNECT_LATER);
    raw.end();
  });
  const stop = () => {
    clearInterval(heartbeat);
    unsubscribe();
    options.onClose();
    forget();
  };
  raw.on('close', stop);
  raw.on('error', stop);
}
