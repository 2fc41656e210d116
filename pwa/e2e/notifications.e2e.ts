import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { and, eq } from 'drizzle-orm';
import { notificationTokens } from '@platform/schema/db';
import { notificationMessages } from '@platform/schema/notifications/notifications.messages';
import { demoLogins, launchBrowser, logIn } from '../../scripts/e2e/harness.ts';
import { startWebPushE2eServer } from '../../scripts/e2e/push-server.ts';

type Shown = { title: string; body: string; icon: string; data: { url?: string } | null };

/**
 * Push notifications, end to end but for the push service. Headless Chromium has none to
 * subscribe with (pushManager.subscribe fails there), so: delivery goes to a local push
 * service, which receives what the real Web Push adapter encrypts and POSTs, decrypts it with
 * the subscription's keys, and hands it to the browser through DevTools' push delivery (the
 * path a real push service's message takes into our service worker); and the settings page's
 * button gets its subscription from a stand-in for the browser's subscribe.
 */
describe('push notifications', () => {
  let server: Awaited<ReturnType<typeof startWebPushE2eServer>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let cdp: CDPSession;
  let registrationId: string;

  beforeAll(async () => {
    // The test reads what was sent on /dev/notifications, which exists only when turned on.
    [server, browser] = await Promise.all([
      startWebPushE2eServer({ DEV_TOOLS: '1' }),
      launchBrowser(),
    ]);
    context = await browser.newContext();
    await context.grantPermissions(['notifications'], { origin: server.url });
    page = await context.newPage();
    cdp = await context.newCDPSession(page);
    const registrations = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: updated }) => {
        const ours = updated.find(
          (r: { scopeURL: string; isDeleted: boolean }) =>
            r.scopeURL === `${server.url}/` && !r.isDeleted,
        );
        if (ours) resolve(ours.registrationId as string);
      });
    });
    await cdp.send('ServiceWorker.enable');
    await logIn(page, server.url, demoLogins.owner.email);
    await page.waitForFunction(
      async () => (await navigator.serviceWorker.ready).active !== null,
      null,
      { timeout: 15_000 },
    );
    registrationId = await registrations;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const shownNotifications = () =>
    page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return (await registration.getNotifications()).map((n) => ({
        title: n.title,
        body: n.body,
        icon: n.icon,
        data: n.data as { url?: string } | null,
      }));
    });
  const deliver = (data: string) =>
    cdp.send('ServiceWorker.deliverPushMessage', { origin: server.url, registrationId, data });
  const waitForNotification = async (title: string): Promise<Shown> => {
    let found: Shown | undefined;
    await expect
      .poll(async () => (found = (await shownNotifications()).find((n) => n.title === title)), {
        // The service worker's push handler, beside a loaded run's other browsers, once took
        // longer than 10 s to show the second of two messages (2026-11-30; green alone).
        timeout: 20_000,
      })
      .toBeDefined();
    return found as Shown;
  };

  it('a test notice goes through the Web Push adapter and the service worker shows it', async () => {
    const subscription = server.pushService.subscription('/push/owner-laptop');
    // Registered directly: the API accepts only public push services, and this one is local.
    await server.db.insert(notificationTokens).values({
      userId: server.seed.userIds.owner,
      deviceId: 'e2e-owner-laptop',
      kind: 'webpush',
      token: subscription.endpoint,
      keys: subscription.keys,
    });

    const outcome = await page.evaluate(async (orgId) => {
      const response = await fetch('/api/notifications', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ action: 'send-test-notification', orgId }),
      });
      return response.json() as Promise<unknown>;
    }, server.seed.zipperOrgId);
    expect(outcome).toEqual({ status: 'queued', deviceCount: 1, recordedOnly: false });

    // A background job sends it, after the answer.
    let pushed: (typeof server.pushService.requests)[number] | undefined;
    await expect
      .poll(
        () =>
          (pushed = server.pushService.requests.find(
            (request) => request.path === '/push/owner-laptop',
          )),
        { timeout: 15_000 },
      )
      .toBeDefined();
    if (!pushed) throw new Error('the push service received nothing');
    expect(String(pushed.headers.authorization)).toMatch(/^vapid t=.+, k=.+$/);
    await deliver(subscription.decrypt(pushed.body));

    const shown = await waitForNotification(notificationMessages.testTitle);
    expect(shown).toMatchObject({
      body: notificationMessages.testBody,
      data: { url: '/dashboard' },
    });
    expect(shown.icon).toBe(`${server.url}/icons/icon-192.png`);
  });

  it('shows an FCM data message the same way, and never keeps a link to another site', async () => {
    await deliver(
      JSON.stringify({
        from: '1234',
        data: { title: 'Yoga moved', body: 'Now at 19:00', url: '/dashboard/bookings' },
      }),
    );
    expect(await waitForNotification('Yoga moved')).toMatchObject({
      body: 'Now at 19:00',
      data: { url: '/dashboard/bookings' },
    });
    await deliver(JSON.stringify({ title: 'Elsewhere', body: 'x', url: 'https://evil.test/' }));
    expect((await waitForNotification('Elsewhere')).data).toEqual({ url: '/' });
  });

  /**
   * Headless Chromium refuses pushManager.subscribe (it has no push service), so the page's
   * subscribe answers as a browser's would, with an endpoint at a real push service's host.
   * Everything else is real: the permission, our service worker, the API, the database.
   */
  const fakeBrowserPushService = () => {
    const endpoint = 'https://fcm.googleapis.com/fcm/send/e2e-settings-device';
    const keys = {
      p256dh:
        'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
      auth: 'tBHItJI5svbpez7KI4CCXg',
    };
    PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) =>
      ({
        endpoint,
        expirationTime: null,
        options: {
          userVisibleOnly: true,
          applicationServerKey: options?.applicationServerKey ?? null,
        },
        toJSON: () => ({ endpoint, keys }),
        getKey: () => null,
        unsubscribe: async () => true,
      }) as unknown as PushSubscription;
  };

  it("'Turn on notifications' on the settings page registers this device, then says they are on", async () => {
    const settingsContext = await browser.newContext();
    await settingsContext.grantPermissions(['notifications'], { origin: server.url });
    await settingsContext.addInitScript(fakeBrowserPushService);
    const settings = await settingsContext.newPage();
    await logIn(settings, server.url, demoLogins.owner.email);
    await settings.goto(`${server.url}/dashboard/settings`);
    await settings.getByRole('button', { name: notificationMessages.turnOn }).click();
    await settings.getByRole('status').filter({ hasText: notificationMessages.on }).waitFor();

    const rows = await server.db
      .select()
      .from(notificationTokens)
      .where(
        and(
          eq(notificationTokens.userId, server.seed.userIds.owner),
          eq(notificationTokens.kind, 'webpush'),
        ),
      );
    const registered = rows.find(
      (row) => row.token === 'https://fcm.googleapis.com/fcm/send/e2e-settings-device',
    );
    expect(registered?.sessionId).toBeTruthy();
    expect(registered?.keys).toMatchObject({ auth: 'tBHItJI5svbpez7KI4CCXg' });

    // The server remembers this device: a later visit says so without asking again.
    await settings.reload();
    await settings.getByRole('status').filter({ hasText: notificationMessages.on }).waitFor();
    await settingsContext.close();
  });

  it('a refused permission is only logged (spec §8), and the page says the browser blocks them', async () => {
    const refusingContext = await browser.newContext();
    const refusing = await refusingContext.newPage();
    const warnings: string[] = [];
    refusing.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await logIn(refusing, server.url, demoLogins.owner.email);
    await refusing.goto(`${server.url}/dashboard/settings`);
    // Headless Chromium answers a permission request it was not granted with 'denied'.
    await refusing.getByRole('button', { name: notificationMessages.turnOn }).click();
    await refusing.getByText(notificationMessages.blocked).waitFor();
    expect(warnings).toContainEqual(`${notificationMessages.permissionRefusedLog} denied`);
    expect(
      await refusing.getByRole('alert').filter({ hasText: notificationMessages.failed }).count(),
    ).toBe(0);
    await refusingContext.close();
  });

  it('the development page lists the notice', async () => {
    await page.goto(`${server.url}/dev/notifications`);
    await page.getByRole('heading', { name: notificationMessages.testTitle }).waitFor();
    await page.getByText(`To ${demoLogins.owner.email} · web-push · 1 device`).waitFor();
  });
});
