import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandingMessages } from '@platform/schema/branding/branding.zod';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { seedSyncOrg, waitForVisibility, type Person } from '../testing/sync-fixtures.ts';
import { addMembership, insertTestUser, logInAs } from '../testing/auth-fixtures.ts';
import { brandedOrgIdOf, brandHtml } from './branded-html.ts';

const shellHtml = `<!doctype html><html><head>
<meta name="theme-color" content="#0f766e" />
<link rel="manifest" href="/manifest.webmanifest" />
<link rel="icon" href="/icons/icon-192.png" type="image/png" />
<link rel="apple-touch-icon" href="/icons/icon-192.png" />
<title>Coaching Platform</title></head><body><div id="root"></div></body></html>`;

const settings = {
  appName: 'Zipper Fitness',
  shortName: 'Zipper',
  themeColor: '#1D4ED8',
  backgroundColor: '#fefce8',
  timezone: 'Europe/Amsterdam',
};

/** A wide red logo: the icons must keep its shape inside their squares. */
const redLogo = () =>
  sharp({ create: { width: 600, height: 300, channels: 3, background: '#ff0000' } })
    .png()
    .toBuffer();

describe('brandedOrgIdOf', () => {
  const id = '0b7f7a8e-2a52-4d4c-9f6e-0a8d6e3c1b2a';
  it('finds the organisation of customer-app pages and branded sign-in pages only', () => {
    expect(brandedOrgIdOf(`/dashboard-customer/${id}`)).toBe(id);
    expect(brandedOrgIdOf(`/dashboard-customer/${id.toUpperCase()}/settings?x=1`)).toBe(id);
    expect(brandedOrgIdOf(`/auth/signup?orgId=${id}`)).toBe(id);
    expect(brandedOrgIdOf(`/dashboard-customer/${id}x`)).toBeNull();
    expect(brandedOrgIdOf(`/dashboard?orgId=${id}`)).toBeNull();
    expect(brandedOrgIdOf(`/auth/login?orgId=nope`)).toBeNull();
  });

  it('writes names into the shell escaped', () => {
    const html = brandHtml(shellHtml, {
      orgId: id,
      appName: 'Bob\'s <Gym> & "Spa"',
      shortName: 'Bob',
      themeColor: '#112233',
      backgroundColor: '#ffffff',
      logoUrl: '/org-assets/x/y/icon-192.png',
      manifestUrl: `/manifests/${id}.webmanifest`,
    });
    expect(html).toContain('<title>Bob&#39;s &lt;Gym&gt; &amp; &quot;Spa&quot;</title>');
    expect(html).toContain(`<link rel="manifest" href="/manifests/${id}.webmanifest" />`);
    expect(html).toContain('<meta name="theme-color" content="#112233" />');
    expect(html).toContain('<link rel="apple-touch-icon" href="/org-assets/x/y/icon-192.png"');
  });

  it("keeps '$' sequences in names as written", () => {
    const html = brandHtml(shellHtml, {
      orgId: id,
      appName: "Bob$'s $` $& Gym",
      shortName: 'Bob',
      themeColor: '#112233',
      backgroundColor: '#ffffff',
      logoUrl: null,
      manifestUrl: `/manifests/${id}.webmanifest`,
    });
    expect(html).toContain('<title>Bob$&#39;s $` $&amp; Gym</title>');
  });
});

describe.each(testDatabaseKinds)('branding on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Awaited<ReturnType<typeof seedSyncOrg>>;
  let b: Awaited<ReturnType<typeof seedSyncOrg>>;
  let brander: Person;

  const as = (
    who: Person | null,
    method: 'GET' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method,
      url,
      headers: { ...(who ? who.jar.headers() : { origin: 'http://localhost:3000' }), ...headers },
      ...(payload === undefined ? {} : { payload: payload as string }),
    });
  const putLogo = (who: Person, orgId: string, image: Buffer | string, type = 'image/png') =>
    as(who, 'PUT', `/api/organizations/${orgId}/logo`, image, { 'content-type': type });

  beforeAll(async () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'pwa-dist-'));
    writeFileSync(path.join(dist, 'index.html'), shellHtml);
    t = await createTestApp(kind, { env: { PWA_DIST: dist } });
    a = await seedSyncOrg(t.app, t.db);
    b = await seedSyncOrg(t.app, t.db);
    const user = await insertTestUser(t.db);
    await addMembership(t.db, user.id, a.org.id, 'staff', ['manage-org-branding']);
    const { jar } = await logInAs(t.app, user.email ?? '', {
      profileType: 'use-org',
      profileOrgId: a.org.id,
    });
    brander = { id: user.id, email: user.email ?? '', jar };
  });
  afterAll(() => t.close());

  it('gives every organisation a branding from the moment it exists', async () => {
    const res = await as(null, 'GET', `/api/branding/${b.org.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      orgId: b.org.id,
      appName: b.org.label,
      shortName: b.org.label.slice(0, 12),
      themeColor: '#0f766e',
      backgroundColor: '#ffffff',
      logoUrl: null,
      manifestUrl: `/manifests/${b.org.id}.webmanifest`,
    });
    expect(
      (await as(null, 'GET', '/api/branding/0b7f7a8e-2a52-4d4c-9f6e-0a8d6e3c1b2a')).statusCode,
    ).toBe(404);
    expect((await as(null, 'GET', '/api/branding/not-a-uuid')).statusCode).toBe(404);
  });

  it('lets only staff holding manage-org-branding in that organisation change it', async () => {
    const url = `/api/organizations/${a.org.id}/branding`;
    // The staff member tracks time only; the parent is a customer; b's manager is elsewhere.
    for (const who of [a.staff, a.parent, b.manager]) {
      expect((await as(who, 'GET', url)).statusCode).toBe(403);
      expect((await as(who, 'PUT', url, settings)).statusCode).toBe(403);
      expect((await putLogo(who, a.org.id, await redLogo())).statusCode).toBe(403);
    }
    expect((await as(null, 'PUT', url, settings)).statusCode).toBe(401);
    const saved = await as(brander, 'PUT', url, settings);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      appName: 'Zipper Fitness',
      shortName: 'Zipper',
      themeColor: '#1d4ed8',
      backgroundColor: '#fefce8',
      timezone: 'Europe/Amsterdam',
      customerAppPath: `/dashboard-customer/${a.org.id}`,
    });
    // The organisation's timezone is the one time tracking reads.
    const me = await as(a.manager, 'GET', '/api/me');
    expect(me.json().org.timezone).toBe('Europe/Amsterdam');
  });

  it('answers each wrong setting with its message', async () => {
    const res = await as(brander, 'PUT', `/api/organizations/${a.org.id}/branding`, {
      appName: ' ',
      shortName: 'Much too long a name',
      themeColor: 'red',
      backgroundColor: '#fff',
      timezone: 'Mars/Olympus',
    });
    expect(res.statusCode).toBe(400);
    const messages = Object.fromEntries(
      (res.json().errors as Array<{ field: string; message: string }>).map((e) => [
        e.field,
        e.message,
      ]),
    );
    expect(messages).toEqual({
      appName: brandingMessages.appNameRequired,
      shortName: brandingMessages.shortNameTooLong,
      themeColor: brandingMessages.invalidColor,
      backgroundColor: brandingMessages.invalidColor,
      timezone: brandingMessages.invalidTimezone,
    });
  });

  it('turns an uploaded logo into real PNG icons of the sizes the manifest states', async () => {
    await as(brander, 'PUT', `/api/organizations/${a.org.id}/branding`, settings);
    const res = await putLogo(brander, a.org.id, await redLogo());
    expect(res.statusCode).toBe(200);
    expect(res.json().logoUrl).toMatch(
      new RegExp(`^/org-assets/${a.org.id}/[0-9a-f]{16}/icon-192.png$`),
    );

    const manifestRes = await as(null, 'GET', `/manifests/${a.org.id}.webmanifest`);
    expect(manifestRes.statusCode).toBe(200);
    expect(manifestRes.headers['content-type']).toContain('application/manifest+json');
    expect(manifestRes.headers['cache-control']).toBe('no-cache');
    const manifest = manifestRes.json();
    expect(manifest).toMatchObject({
      name: 'Zipper Fitness',
      short_name: 'Zipper',
      start_url: `/dashboard-customer/${a.org.id}`,
      scope: `/dashboard-customer/${a.org.id}`,
      id: `/dashboard-customer/${a.org.id}`,
      display: 'standalone',
      theme_color: '#1d4ed8',
      background_color: '#fefce8',
    });
    const icons = manifest.icons as Array<{ src: string; sizes: string; purpose: string }>;
    expect(icons.map((i) => `${i.sizes}:${i.purpose}`)).toEqual([
      '192x192:any',
      '512x512:any',
      '512x512:maskable',
    ]);
    for (const icon of icons) {
      expect(icon.src.startsWith(`/org-assets/${a.org.id}/`)).toBe(true);
      const image = await as(null, 'GET', icon.src);
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/png');
      expect(image.headers['cache-control']).toContain('immutable');
      const meta = await sharp(image.rawPayload).metadata();
      expect(`${meta.format} ${meta.width}x${meta.height}`).toBe(`png ${icon.sizes}`);
    }
    // The maskable icon is filled with the background colour; the logo keeps to the safe zone.
    const maskable = icons.find((i) => i.purpose === 'maskable')?.src ?? '';
    const { data } = await sharp((await as(null, 'GET', maskable)).rawPayload)
      .raw()
      .toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [
      ...data.subarray((y * 512 + x) * 4, (y * 512 + x) * 4 + 3),
    ];
    expect(pixel(2, 2)).toEqual([0xfe, 0xfc, 0xe8]);
    expect(pixel(256, 256)).toEqual([255, 0, 0]);
    expect(pixel(256, 256 - 120)).toEqual([0xfe, 0xfc, 0xe8]); // wide logo: margins above and below
  });

  it('answers a revalidation of an unchanged manifest with 304', async () => {
    const first = await as(null, 'GET', `/manifests/${a.org.id}.webmanifest`);
    const etag = String(first.headers.etag);
    expect(
      (
        await as(null, 'GET', `/manifests/${a.org.id}.webmanifest`, undefined, {
          'if-none-match': etag,
        })
      ).statusCode,
    ).toBe(304);
    expect((await as(null, 'GET', `/manifests/${b.org.id}x.webmanifest`)).statusCode).toBe(404);
  });

  it('redraws the icons under a new address when the background changes', async () => {
    const before = (await as(brander, 'GET', `/api/organizations/${a.org.id}/branding`)).json()
      .logoUrl as string;
    const after = (
      await as(brander, 'PUT', `/api/organizations/${a.org.id}/branding`, {
        ...settings,
        backgroundColor: '#000000',
      })
    ).json().logoUrl as string;
    expect(after).not.toBe(before);
    expect((await as(null, 'GET', before)).statusCode).toBe(404);
    expect((await as(null, 'GET', after)).statusCode).toBe(200);
    await as(brander, 'PUT', `/api/organizations/${a.org.id}/branding`, settings);
  });

  it('answers a broken or enormous image with 400 and its message, never 500', async () => {
    const png = await redLogo();
    const truncated = await putLogo(brander, a.org.id, png.subarray(0, Math.floor(png.length / 2)));
    expect(truncated.statusCode).toBe(400);
    expect(truncated.json().message).toBe(brandingMessages.logoNotAnImage);
    const thin = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="200000"><rect width="1" height="200000"/></svg>',
    );
    const bomb = await putLogo(brander, a.org.id, thin, 'image/svg+xml');
    expect(bomb.statusCode).toBe(400);
    expect(bomb.json().message).toBe(brandingMessages.logoTooManyPixels);
  });

  it('accepts the organisation id in any letter case from its own staff', async () => {
    const res = await as(brander, 'GET', `/api/organizations/${a.org.id.toUpperCase()}/branding`);
    expect(res.statusCode).toBe(200);
  });

  it('refuses what is not an image, or too small to make an icon, with its message', async () => {
    const text = await putLogo(brander, a.org.id, 'just some text', 'text/plain');
    expect(text.statusCode).toBe(400);
    expect(text.json().message).toBe(brandingMessages.logoNotAnImage);
    const tiny = await sharp({
      create: { width: 40, height: 40, channels: 3, background: '#00ff00' },
    })
      .png()
      .toBuffer();
    const small = await putLogo(brander, a.org.id, tiny);
    expect(small.statusCode).toBe(400);
    expect(small.json().message).toBe(brandingMessages.logoTooSmall);
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><circle cx="12" cy="12" r="10" fill="#0a0"/></svg>',
    );
    const vector = await putLogo(brander, a.org.id, svg, 'image/svg+xml');
    expect(vector.statusCode).toBe(200);
    const big = await as(null, 'GET', vector.json().logoUrl.replace('icon-192', 'icon-512'));
    expect((await sharp(big.rawPayload).metadata()).width).toBe(512);
  });

  it('serves the organisation pages as its app: its manifest, colour and name in the shell', async () => {
    const page = await as(null, 'GET', `/dashboard-customer/${a.org.id}/settings`, undefined, {
      accept: 'text/html',
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(
      `<link rel="manifest" href="/manifests/${a.org.id}.webmanifest" />`,
    );
    expect(page.body).toContain('<meta name="theme-color" content="#1d4ed8" />');
    expect(page.body).toContain('<title>Zipper Fitness</title>');
    const signup = await as(null, 'GET', `/auth/signup?orgId=${a.org.id}`, undefined, {
      accept: 'text/html',
    });
    expect(signup.body).toContain(`/manifests/${a.org.id}.webmanifest`);
    const plain = await as(null, 'GET', '/dashboard', undefined, { accept: 'text/html' });
    expect(plain.body).toContain('<link rel="manifest" href="/manifest.webmanifest" />');
  });

  it('replicates the branding read-only to every member of the organisation and no one else', async () => {
    await waitForVisibility(t.db);
    const pull = (who: Person) => as(who, 'GET', '/api/sync/org-branding/pull');
    for (const who of [a.parent, a.staff, a.manager]) {
      const res = await pull(who);
      expect(res.statusCode).toBe(200);
      expect(res.json().documents).toEqual([
        expect.objectContaining({
          id: a.org.id,
          orgId: a.org.id,
          appName: 'Zipper Fitness',
          _deleted: false,
        }),
      ]);
    }
    const elsewhere = (await pull(b.parent)).json().documents as Array<{ orgId: string }>;
    expect(elsewhere.map((d) => d.orgId)).toEqual([b.org.id]);
    const doc = (await pull(a.parent)).json().documents[0];
    const push = await t.app.inject({
      method: 'POST',
      url: '/api/sync/org-branding/push',
      headers: a.manager.jar.headers(),
      payload: [{ assumedMasterState: doc, newDocumentState: { ...doc, appName: 'Hacked' } }],
    });
    expect(push.statusCode).toBeGreaterThanOrEqual(400);
    expect((await as(null, 'GET', `/api/branding/${a.org.id}`)).json().appName).toBe(
      'Zipper Fitness',
    );
    // A change reaches devices through the next pull from their checkpoint.
    const checkpoint = (await pull(a.parent)).json().checkpoint;
    await as(brander, 'PUT', `/api/organizations/${a.org.id}/branding`, {
      ...settings,
      appName: 'Zipper Gym',
    });
    await waitForVisibility(t.db);
    const next = await as(
      a.parent,
      'GET',
      `/api/sync/org-branding/pull?id=${checkpoint.id}&lsn=${checkpoint.lsn}`,
    );
    expect(next.json().documents.map((d: { appName: string }) => d.appName)).toEqual([
      'Zipper Gym',
    ]);
    await as(brander, 'PUT', `/api/organizations/${a.org.id}/branding`, settings);
  });
});
