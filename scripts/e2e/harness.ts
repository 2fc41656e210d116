import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { buildApp } from '../../sync-server/src/app.ts';
import { loadConfig } from '../../sync-server/src/config.ts';
import { createTestDatabase } from '../../sync-server/src/testing/test-database.ts';
import { chromiumArgs, chromiumPath } from '../lib/chromium.ts';
import { pwaDist } from '../lib/pwa-build.ts';
import { watchBrowser, watchContext } from './browser-log.ts';
import { DEMO_PASSWORD, demoLogins, seedDemo, type DemoSeed } from '../seed.ts';

export { DEMO_PASSWORD, demoLogins };

export type E2eServer = {
  url: string;
  seed: DemoSeed;
  db: Awaited<ReturnType<typeof createTestDatabase>>['db'];
  close: () => Promise<void>;
};

/**
 * The real server (built PWA, real database — PostgreSQL when DATABASE_URL is set, PGlite
 * otherwise) on a free loopback port, on a fresh seeded database of its own.
 */
export async function startE2eServer(env: Record<string, string> = {}): Promise<E2eServer> {
  const database = await createTestDatabase(process.env.DATABASE_URL ? 'postgres' : 'pglite');
  const { seed } = await seedDemo(database.db);
  // PUBLIC_URL must name the real port, so listen on a port we pick: below Linux's ephemeral
  // range (32768+, where the browser's and other servers' own connections take theirs), and
  // another one if it is taken after all.
  for (let attempt = 1; ; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const config = loadConfig({
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      SESSION_SECRET: 'e2e-secret-e2e-secret-e2e-secret-0123456789',
      PWA_DIST: pwaDist,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...env,
    });
    const app = await buildApp({ config, database });
    try {
      await app.listen({ port, host: '127.0.0.1' });
    } catch (error) {
      await app.close();
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE' && attempt < 10) continue;
      throw error;
    }
    return {
      url: config.publicUrl,
      seed,
      db: database.db,
      close: async () => {
        await app.close();
        await database.close();
      },
    };
  }
}

export async function launchBrowser(): Promise<Browser> {
  return watchBrowser(await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs }));
}

/** A persistent profile: installability and service workers behave as for a real user. */
export async function launchPersistent(): Promise<{
  context: BrowserContext;
  close: () => Promise<void>;
}> {
  const dir = mkdtempSync(path.join(tmpdir(), 'e2e-profile-'));
  const context = watchContext(
    await chromium.launchPersistentContext(dir, {
      executablePath: chromiumPath,
      args: chromiumArgs,
    }),
  );
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Logs in through the real page, as a person would. */
export async function logIn(
  page: Page,
  baseUrl: string,
  email: string,
  password = DEMO_PASSWORD,
): Promise<void> {
  await page.goto(`${baseUrl}/auth/login`);
  await page.getByLabel(/username or email/i).fill(email);
  await page.getByLabel(/^password$/i).fill(password);
  await page.getByRole('button', { name: /^sign in$/i }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/auth/login'));
}

/**
 * The usual set-up of an end-to-end file: a fresh server and a browser before its tests, both
 * closed after. Read `env.server` and `env.browser` inside tests.
 */
export function useServerAndBrowser(env: Record<string, string> = {}) {
  const context = {} as { server: E2eServer; browser: Browser };
  beforeAll(async () => {
    [context.server, context.browser] = await Promise.all([startE2eServer(env), launchBrowser()]);
  });
  afterAll(async () => {
    await context.browser?.close();
    await context.server?.close();
  });
  return context;
}

/**
 * Resolves once a button reading exactly `text` has been on the page — even if it was there
 * only for a moment before a navigation took the page away (signup's 'Created!' shows for
 * 750 ms; a loaded machine can miss it by polling). Call it before the action
 * that shows it; await what it returns after.
 */
export async function watchForButton(page: Page, text: string): Promise<() => Promise<void>> {
  const binding = `__sawButton${Math.random().toString(36).slice(2)}`;
  let saw = () => {};
  const seen = new Promise<void>((resolve) => (saw = resolve));
  await page.exposeFunction(binding, () => saw());
  const observe = ({ binding, text }: { binding: string; text: string }) => {
    const report = (window as unknown as Record<string, () => void>)[binding];
    const check = () => {
      const buttons = Array.from(document.querySelectorAll('button'));
      if (buttons.some((button) => button.textContent?.trim() === text)) report?.();
    };
    new MutationObserver(check).observe(document, {
      subtree: true,
      childList: true,
      characterData: true,
    });
    check();
  };
  await page.addInitScript(observe, { binding, text });
  await page.evaluate(observe, { binding, text });
  return () => seen;
}
