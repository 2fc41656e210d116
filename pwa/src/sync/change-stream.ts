import { createParser } from 'eventsource-parser';
import { Subject } from 'rxjs';
import {
  STREAM_RECONNECT_EVENT,
  STREAM_SILENCE_LIMIT_MS,
  streamChangeSchema,
  streamReconnectSchema,
} from '@platform/schema/sync/sync.zod';

export type StreamSignal = { kind: 'resync' } | { kind: 'change'; collection: string; lsn: number };
export type StreamState = 'connecting' | 'open' | 'closed';

/**
 * The live stream (GET /api/sync/stream) read over fetch — the browser's EventSource cannot
 * be given a custom fetch, and ours carries cookies in tests too. Reconnects with backoff, or
 * after the wait a restarting server asks for (`event: reconnect`); the server says `resync`
 * on every (re)connect, so nothing missed while away is lost.
 */
export function openChangeStream(options: { url: string; fetch: typeof fetch }) {
  const signals = new Subject<StreamSignal>();
  const states = new Subject<StreamState>();
  let controller: AbortController | null = null;
  let stopped = false;
  let attempt = 0;
  let lastHeard = Date.now();
  let wakeUp: (() => void) | null = null;
  /** Set when the server said it is going away (a restart): how long to stay away. */
  let askedToWait: number | null = null;
  let retryHint: number | null = null;
  // The server speaks at least every STREAM_HEARTBEAT_MS; silence for longer means a dead
  // connection that TCP has not noticed (a phone that changed networks): start again.
  const watchdog = setInterval(() => {
    if (Date.now() - lastHeard > STREAM_SILENCE_LIMIT_MS) controller?.abort();
  }, 5_000);

  const connect = async () => {
    while (!stopped) {
      controller = new AbortController();
      states.next('connecting');
      try {
        const response = await options.fetch(options.url, {
          headers: { accept: 'text/event-stream' },
          signal: controller.signal,
          credentials: 'same-origin',
          // Long-lived: never competes with the page's own loading (and Lighthouse does not
          // wait for a high-priority request that never finishes).
          priority: 'low',
        });
        if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
        states.next('open');
        attempt = 0;
        lastHeard = Date.now();
        const parser = createParser({
          onComment: () => {
            lastHeard = Date.now();
          },
          onRetry: (ms) => {
            retryHint = ms;
          },
          onEvent: (event) => {
            lastHeard = Date.now();
            if (event.event === 'resync') signals.next({ kind: 'resync' });
            if (event.event === STREAM_RECONNECT_EVENT) {
              const parsed = streamReconnectSchema.safeParse(JSON.parse(event.data));
              askedToWait = parsed.success ? parsed.data.afterMs : (retryHint ?? 5_000);
            }
            if (event.event === 'change') {
              const parsed = streamChangeSchema.safeParse(JSON.parse(event.data));
              if (parsed.success) signals.next({ kind: 'change', ...parsed.data });
            }
          },
        });
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          parser.feed(value);
        }
      } catch {
        // Offline, server restarting, or aborted: fall through to the backoff.
      }
      states.next('closed');
      if (stopped) return;
      let delay: number;
      if (askedToWait !== null) {
        // The server is restarting (it drains on SIGTERM): come back when it asks, spread out
        // so that every device does not return in the same instant.
        delay = askedToWait + Math.random() * askedToWait;
        askedToWait = null;
        attempt = 0;
      } else {
        attempt += 1;
        delay = Math.min(30_000, 500 * 2 ** Math.min(attempt, 6));
      }
      await new Promise<void>((resolve) => {
        wakeUp = resolve;
        setTimeout(resolve, delay);
      });
      wakeUp = null;
    }
  };
  void connect();

  return {
    signals: signals.asObservable(),
    states: states.asObservable(),
    /** Reconnect at once (the device came back online), also in the middle of a backoff. */
    reconnect: () => {
      attempt = 0;
      controller?.abort();
      wakeUp?.();
    },
    close: () => {
      stopped = true;
      clearInterval(watchdog);
      wakeUp?.();
      controller?.abort();
      signals.complete();
      states.complete();
    },
  };
}
