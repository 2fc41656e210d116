import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { googleMessages, signupMessages } from '@platform/schema/auth/auth.messages';
import {
  demoLogins,
  launchBrowser,
  startE2eServer,
  type E2eServer,
} from '../../scripts/e2e/harness.ts';

/**
 * Google is the outside world, so it is faked at its edges only: a local key set stands in for
 * Google's published keys, and a stand-in for the GIS script signs the person in the way GIS
 * does (redirect mode posts `credential` + g_csrf_token; callback mode hands the token over).
 */
const CLIENT_ID = 'e2e-client.apps.googleusercontent.com';
const KID = 'e2e-key';

const fakeGisScript = (credential: string) => `
window.google = { accounts: { id: {
  initialize(config) { window.gisConfig = config; },
  renderButton(parent) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = 'Continue with Google (test double)';
    button.onclick = () => {
      const config = window.gisConfig;
      if (config.ux_mode !== 'redirect') return config.callback({ credential: ${JSON.stringify(credential)} });
      document.cookie = 'g_csrf_token=e2e-csrf; path=/';
      const form = document.createElement('form');
      form.method = 'post';
      form.action = config.login_uri;
      for (const [name, value] of [['credential', ${JSON.stringify(credential)}], ['g_csrf_token', 'e2e-csrf']]) {
        const input = document.createElement('input');
        input.type = 'hidden'; input.name = name; input.value = value;
        form.append(input);
      }
      document.body.append(form);
      form.submit();
    };
    parent.append(button);
  },
} } };`;

type GisConfig = { client_id: string; ux_mode?: string; login_uri?: string; callback?: unknown };

describe('Google sign-in', () => {
  let server: E2eServer;
  let browser: Browser;
  let keys: Server;
  let signingKey: CryptoKey;
  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    signingKey = pair.privateKey;
    const jwks = JSON.stringify({
      keys: [{ ...(await exportJWK(pair.publicKey)), kid: KID, alg: 'RS256', use: 'sig' }],
    });
    keys = createServer((_request, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(jwks),
    );
    await new Promise<void>((resolve) => keys.listen(0, '127.0.0.1', resolve));
    const jwksUrl = `http://127.0.0.1:${(keys.address() as AddressInfo).port}/certs`;
    [server, browser] = await Promise.all([
      startE2eServer({ GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_JWKS_URL: jwksUrl }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    keys?.close();
  });

  const idToken = (
    claims: { sub: string; email: string; given_name: string; family_name: string },
    key = signingKey,
  ) =>
    new SignJWT({ ...claims, email_verified: true })
      .setProtectedHeader({ alg: 'RS256', kid: KID })
      .setIssuer('https://accounts.google.com')
      .setAudience(CLIENT_ID)
      .setSubject(claims.sub)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(key);

  /** A new visitor whose GIS script is the stand-in, signing in with `credential`. */
  async function visitor(credential: string): Promise<Page> {
    const page = await (await browser.newContext()).newPage();
    await page.route('https://accounts.google.com/gsi/client', (route) =>
      route.fulfill({ contentType: 'text/javascript', body: fakeGisScript(credential) }),
    );
    return page;
  }
  const continueWithGoogle = async (page: Page): Promise<GisConfig> => {
    const button = page.getByRole('button', { name: 'Continue with Google (test double)' });
    await button.waitFor();
    const config = await page.evaluate(
      () => (window as unknown as { gisConfig: GisConfig }).gisConfig,
    );
    await button.click();
    return config;
  };
  const me = async (page: Page) =>
    (await (await page.request.get(`${server.url}/api/me`)).json()) as {
      email: string;
      org: { label: string } | null;
    };

  it('signs an existing user in through GIS redirect mode, keeping redirectTo', async () => {
    const token = await idToken({
      sub: 'google-owner',
      email: demoLogins.owner.email,
      given_name: 'Olivia',
      family_name: 'Owner',
    });
    const page = await visitor(token);
    await page.goto(`${server.url}/auth/login?redirectTo=%2Fdashboard%2Fcrm`);
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    await page.waitForURL((url) => url.pathname === '/auth/login-with-google');
    const config = await continueWithGoogle(page);
    expect(config).toMatchObject({
      client_id: CLIENT_ID,
      ux_mode: 'redirect',
      login_uri: `${server.url}/auth/external/login/google?redirectTo=%2Fdashboard%2Fcrm`,
    });
    await page.waitForURL((url) => url.pathname === '/dashboard/crm');
    expect((await me(page)).email).toBe(demoLogins.owner.email);
  });

  it("signs a new customer up with Google from an organisation's branded app, into it", async () => {
    const orgId = server.seed.zipperOrgId;
    const email = `gina.${Date.now().toString(36)}@example.test`;
    const token = await idToken({
      sub: 'google-branded',
      email,
      given_name: 'Gina',
      family_name: 'Branded',
    });
    const page = await visitor(token);
    await page.goto(`${server.url}/auth/signup?orgId=${orgId}`);
    await page.getByRole('button', { name: 'Sign up with Google' }).click();
    await page.waitForURL((url) => url.pathname === '/auth/login-with-google');
    const config = await continueWithGoogle(page);
    expect(new URL(config.login_uri!).searchParams.get('orgId')).toBe(orgId);
    await page.waitForURL((url) => url.pathname === `/dashboard-customer/${orgId}`);
    const person = (await (await page.request.get(`${server.url}/api/me`)).json()) as {
      view: string;
      org: { id: string } | null;
    };
    expect(person).toMatchObject({ view: 'customer', org: { id: orgId } });
  });

  it('creates an organisation with Google from the company step', async () => {
    const token = await idToken({
      sub: 'google-gwen',
      email: 'gwen@gymnastics.example',
      given_name: 'Gwen',
      family_name: 'Gym',
    });
    const page = await visitor(token);
    await page.goto(`${server.url}/auth/signup`);
    await page.getByRole('button', { name: /^Organization/ }).click();
    // Google needs the company name too.
    await page.getByRole('button', { name: 'Sign up with Google' }).click();
    await page.getByText(signupMessages.companyNameRequired, { exact: true }).waitFor();
    await page.getByLabel('Company name').fill('Gwen Gymnastics');
    await page.getByRole('button', { name: 'Sign up with Google' }).click();
    await page.waitForURL((url) => url.pathname === '/auth/login-with-google');
    const config = await continueWithGoogle(page);
    expect(config.ux_mode).toBeUndefined();
    await page.waitForURL((url) => url.pathname === '/dashboard/sites/create');
    const user = await me(page);
    expect(user.email).toBe('gwen@gymnastics.example');
    expect(user.org?.label).toBe('Gwen Gymnastics');
  });

  it('refuses a token Google did not sign', async () => {
    const { privateKey: forged } = await generateKeyPair('RS256');
    const token = await idToken(
      { sub: 'google-mallory', email: 'mallory@example.com', given_name: 'M', family_name: 'X' },
      forged,
    );
    const page = await visitor(token);
    await page.goto(`${server.url}/auth/login`);
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    await continueWithGoogle(page);
    await page.waitForURL((url) => url.pathname === '/auth/login');
    await page.getByRole('alert').getByText(googleMessages.invalidToken, { exact: true }).waitFor();
    expect((await page.request.get(`${server.url}/api/me`)).status()).toBe(401);
  });
});
