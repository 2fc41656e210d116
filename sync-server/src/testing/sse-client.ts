import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** Reads a server-sent event stream over fetch, as the PWA does; for tests. */
export async function openSse(url: string, headers: Record<string, string>) {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
  const events: EventSourceMessage[] = [];
  /** The `retry:` hints the server sent, in milliseconds. */
  const retries: number[] = [];
  let serverEnded = false;
  const waiters = new Set<() => void>();
  const parser = createParser({
    onRetry: (ms) => retries.push(ms),
    onEvent: (event) => {
      events.push(event);
      waiters.forEach((wake) => wake());
    },
  });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  /** Resolves when the server ends the stream (or the client aborts it). */
  const ended = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) {
          serverEnded = true;
          return;
        }
        parser.feed(value);
      }
    } catch {
      // aborted
    }
  })();

  /** Resolves with the first event (from `from` on) that matches, or rejects after `timeoutMs`. */
  function next(match: (event: EventSourceMessage) => boolean, timeoutMs = 3000, from = 0): Promise<EventSourceMessage> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = events.slice(from).find(match);
        if (!found) return false;
        cleanup();
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(events)}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(wake);
      };
      const wake = () => void check();
      waiters.add(wake);
      check();
    });
  }
  return {
    events,
    retries,
    /** Resolves when the stream ends (the server's end or the client's abort). */
    ended,
    /** Whether the server ended the stream. */
    hasEnded: () => serverEnded,
    next,
    close: () => controller.abort(),
  };
}

export const changeOf = (collection: string) => (event: EventSourceMessage) =>
  event.event === 'change' && (JSON.parse(event.data) as { collection: string }).collection === collection;
