import type { Browser, BrowserContext, ConsoleMessage, Request, Response } from 'playwright-core';

/**
 * What the browser said while a test ran — its console errors and warnings, uncaught page
 * errors, requests that failed and answers of 400 or more — so that a test that fails on a
 * loaded CI machine (a tile that never got its status, a pull that never ended) says why, in
 * the failure itself (e2e-setup.ts puts it in the test's report; the runner's recap prints it).
 * One journal per test process: an end-to-end file runs in a process of its own.
 */
const journal: string[] = [];
const KEPT = 400;
let startedAt = Date.now();

function note(line: string): void {
  const seconds = ((Date.now() - startedAt) / 1000).toFixed(1).padStart(6);
  journal.push(`${seconds}s ${line}`);
  if (journal.length > KEPT) journal.splice(0, journal.length - KEPT);
}

/** A URL as the journal shows it: the path and query, without the test server's origin. */
function shortUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.protocol.startsWith('http') ? `${parsed.pathname}${parsed.search}` : url;
  } catch {
    return url;
  }
}

function onConsole(message: ConsoleMessage): void {
  const type = message.type();
  if (type !== 'error' && type !== 'warning') return;
  // RxDB's open-core notice, on every database opened: not the test's concern.
  if (message.text().includes('RxDB Open Core RxStorage')) return;
  const where = message.page() ? '' : ' (worker)';
  note(`console.${type}${where}: ${message.text().slice(0, 500)}`);
}

function onRequestFailed(request: Request): void {
  note(
    `request failed: ${request.method()} ${shortUrl(request.url())} — ${request.failure()?.errorText ?? '?'}`,
  );
}

function onResponse(response: Response): void {
  if (response.status() < 400) return;
  note(`${response.status()} ${response.request().method()} ${shortUrl(response.url())}`);
}

/** Requests sent and not yet answered, with when they went: a pull that hangs shows here. */
const inFlight = new Map<Request, { sent: number; context: BrowserContext }>();

const watched = new WeakSet<BrowserContext>();

/** Writes what `context`'s pages and workers say into the journal. */
export function watchContext(context: BrowserContext): BrowserContext {
  if (watched.has(context)) return context;
  watched.add(context);
  context.on('console', onConsole);
  context.on('weberror', (error) =>
    note(`page error: ${error.error().stack ?? error.error().message}`),
  );
  context.on('request', (request) => inFlight.set(request, { sent: Date.now(), context }));
  context.on('requestfinished', (request) => inFlight.delete(request));
  context.on('requestfailed', (request) => {
    inFlight.delete(request);
    onRequestFailed(request);
  });
  context.on('response', onResponse);
  // A closed context's requests are never answered, and are no longer anyone's concern.
  context.on('close', () => {
    for (const [request, flight] of inFlight)
      if (flight.context === context) inFlight.delete(request);
  });
  context.on('page', (page) => {
    page.on('crash', () => note(`page crashed: ${shortUrl(page.url())}`));
  });
  return context;
}

/** Every context made from `browser` (and each page's own) is watched. */
export function watchBrowser(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  const newPage = browser.newPage.bind(browser);
  browser.newContext = async (...args) => watchContext(await newContext(...args));
  browser.newPage = async (...args) => {
    const page = await newPage(...args);
    watchContext(page.context());
    return page;
  };
  return browser;
}

/** A test begins: the journal's times count from here, and what came before is not its. */
export function startJournal(): void {
  journal.length = 0;
  startedAt = Date.now();
}

/** The journal, and at its end the requests still unanswered after a second. */
export function journalLines(): string[] {
  const now = Date.now();
  const waiting = [...inFlight]
    .filter(([, { sent }]) => now - sent > 1000)
    .map(
      ([request, { sent }]) =>
        `still unanswered after ${((now - sent) / 1000).toFixed(1)} s: ${request.method()} ${shortUrl(request.url())}`,
    );
  return [...journal, ...waiting];
}
