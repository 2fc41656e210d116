/**
 * Stands in for the `unload` package in the browser build (aliased in pwa/vite.config.ts).
 *
 * RxDB's leader election (broadcast-channel) registers "die when the page goes away" through
 * `unload`, which listens to the deprecated `unload` event: Chromium reports the deprecation
 * (Lighthouse best practices) and a page with an unload listener never enters the back/forward
 * cache. This shim listens to `pagehide` instead — fired whenever the page is hidden for good
 * or for the cache. A page entering the cache gives up leadership like a closing one (another
 * tab of the account takes over replication), and if it is brought back it reloads, so it
 * elects again rather than living on without replication. Same exports as `unload` 2.x.
 */
type Listener = () => unknown;

const listeners = new Set<Listener>();
let listening = false;
let leftForCache = false;

function startListening(): void {
  if (listening || typeof window === 'undefined' || typeof window.addEventListener !== 'function')
    return;
  listening = true;
  window.addEventListener('pagehide', (event) => {
    if (listeners.size === 0) return;
    if (event.persisted) leftForCache = true;
    void runAll();
  });
  window.addEventListener('pageshow', (event) => {
    if (event.persisted && leftForCache) window.location.reload();
  });
}

export function add(fn: Listener): { remove: () => boolean; run: () => unknown } {
  if (typeof fn !== 'function') throw new Error('Listener is no function');
  startListening();
  listeners.add(fn);
  return {
    remove: () => listeners.delete(fn),
    run: () => {
      listeners.delete(fn);
      return fn();
    },
  };
}

export function runAll(): Promise<unknown[]> {
  const results = [...listeners].map((fn) => {
    listeners.delete(fn);
    return fn();
  });
  return Promise.all(results);
}

export function removeAll(): void {
  listeners.clear();
}

export function getSize(): number {
  return listeners.size;
}
