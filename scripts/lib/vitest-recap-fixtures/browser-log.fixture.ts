import '../../../pwa/e2e/e2e-setup.ts';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { watchBrowser } from '../../e2e/browser-log.ts';
import { chromiumArgs, chromiumPath } from '../chromium.ts';

let browser: Browser;
beforeAll(async () => {
  browser = watchBrowser(
    await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs }),
  );
});
afterAll(() => browser?.close());

test('a page that says why before the test fails', async () => {
  const page = await browser.newPage();
  await page.route('**/*', (route) => route.fulfill({ status: 503, body: 'down' }));
  await page.goto('http://fixture.test/api/sync/time-entries/pull?batchSize=200');
  await page.evaluate(() => console.error('the replica never answered'));
  expect(await page.title()).toBe('Tap your name');
});
