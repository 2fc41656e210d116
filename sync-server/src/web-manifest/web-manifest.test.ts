import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { createTestApp } from '../testing/test-app.ts';
import { renderTemplate } from './render-manifest.ts';

describe('renderTemplate', () => {
  it('fills placeholders inside strings only, so odd names cannot break the JSON', () => {
    const out = renderTemplate({ name: '{{name}}', icons: [{ src: '{{base}}/a.png' }], n: 1 }, { name: 'Bob\'s "Gym" {x}', base: '/i' });
    expect(out).toEqual({ name: 'Bob\'s "Gym" {x}', icons: [{ src: '/i/a.png' }], n: 1 });
  });
});

describe('GET /manifest.webmanifest', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  });
  afterAll(() => t.close());

  it('renders the default manifest with what Chromium needs to install the app', async () => {
    const res = await t.app.inject({ url: '/manifest.webmanifest' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/manifest+json');
    const manifest = res.json();
    expect(manifest).toMatchObject({ name: 'Coaching Platform', short_name: 'Coaching', display: 'standalone', start_url: '/dashboard', scope: '/' });
    expect(manifest.icons.map((i: { sizes: string; purpose: string }) => `${i.sizes}:${i.purpose}`)).toEqual([
      '192x192:any',
      '512x512:any',
      '512x512:maskable',
    ]);
  });

  it('serves real PNG icons of the sizes the manifest states', async () => {
    const manifest = (await t.app.inject({ url: '/manifest.webmanifest' })).json();
    for (const icon of manifest.icons as Array<{ src: string; sizes: string }>) {
      const res = await t.app.inject({ url: icon.src });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      const meta = await sharp(res.rawPayload).metadata();
      expect(`${meta.width}x${meta.height}`).toBe(icon.sizes);
      expect(meta.format).toBe('png');
    }
  });

  it('refuses paths outside the icon folder', async () => {
    expect((await t.app.inject({ url: '/icons/..%2Fapp.webmanifest.json' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/icons/nope.png' })).statusCode).toBe(404);
  });
});
