import path from 'node:path';
import sharp from 'sharp';
import { repoRoot } from './lib/pwa-build.ts';

/** Renders the default icons of manifest-templates/icons from icon.svg. */
const dir = path.join(repoRoot, 'manifest-templates/icons');
const svg = path.join(dir, 'icon.svg');
await sharp(svg).resize(192, 192).png().toFile(path.join(dir, 'icon-192.png'));
await sharp(svg).resize(512, 512).png().toFile(path.join(dir, 'icon-512.png'));
// Maskable: full-bleed background, the glyph shrunk into the safe zone.
const glyph = await sharp(svg).resize(384, 384).png().toBuffer();
await sharp({ create: { width: 512, height: 512, channels: 4, background: '#0f766e' } })
  .composite([{ input: glyph, gravity: 'center' }])
  .png()
  .toFile(path.join(dir, 'icon-maskable-512.png'));
console.log(`icons written to ${dir}`);
