import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { brandingMessages, LOGO_MIN_PIXELS } from '@platform/schema/branding/branding.zod';
import { ValidationFailed } from '../plugins/domain-errors.ts';

export type BrandIcons = {
  version: string;
  icon192: Buffer;
  icon512: Buffer;
  maskable512: Buffer;
};

const acceptedFormats = new Set(['png', 'jpeg', 'webp', 'gif', 'svg']);

/**
 * The maskable icon's logo fits the safe zone: launchers may crop the icon to a circle of 80 %
 * of its width, and a square inside that circle is 80 % / √2 ≈ 56 % wide.
 */
const MASKABLE_LOGO_SHARE = 0.56;

function invalid(message: string): ValidationFailed {
  return new ValidationFailed(message, { errors: [{ field: 'logo', message }] });
}

/**
 * Checks that an upload is an image and draws the icons a web app manifest needs from it with
 * sharp: 192 and 512 px (transparent margins keep the aspect ratio) and a maskable 512 px on
 * the organisation's background colour. The version names this image on this background, so
 * icon URLs change whenever the pictures do.
 */
export async function makeBrandIcons(source: Buffer, backgroundColor: string): Promise<BrandIcons> {
  try {
    return await drawBrandIcons(source, backgroundColor);
  } catch (error) {
    // Whatever the image library cannot read (a truncated file, a bomb past the pixel limit)
    // is the upload's fault, never a server error.
    if (error instanceof ValidationFailed) throw error;
    throw invalid(brandingMessages.logoNotAnImage);
  }
}

/** Decoding stops beyond this many pixels (also for an SVG at the density it is drawn at). */
const MAX_INPUT_PIXELS = 50_000_000;

async function drawBrandIcons(source: Buffer, backgroundColor: string): Promise<BrandIcons> {
  const meta = await sharp(source, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  if (!meta.format || !acceptedFormats.has(meta.format))
    throw invalid(brandingMessages.logoNotAnImage);
  const { width, height } = meta;
  if (!width || !height) throw invalid(brandingMessages.logoNotAnImage);
  const isVector = meta.format === 'svg';
  // An SVG scales to any size; a bitmap must be big enough for the 192 px icon.
  if (!isVector && Math.max(width, height) < LOGO_MIN_PIXELS)
    throw invalid(brandingMessages.logoTooSmall);
  // SVGs are rasterised at a density that gives at least 512 px on the short side.
  const density = isVector ? Math.min(2400, Math.ceil((72 * 512) / Math.min(width, height))) : 72;
  const drawnPixels = width * height * (density / 72) ** 2;
  if (drawnPixels > MAX_INPUT_PIXELS) throw invalid(brandingMessages.logoTooManyPixels);

  const transparent = { r: 0, g: 0, b: 0, alpha: 0 };
  const input = () =>
    sharp(source, {
      ...(isVector ? { density } : {}),
      limitInputPixels: MAX_INPUT_PIXELS,
      failOn: 'truncated',
    });
  const square = (size: number) =>
    input().resize(size, size, { fit: 'contain', background: transparent }).png().toBuffer();
  const inner = Math.round(512 * MASKABLE_LOGO_SHARE);
  const logoForMask = await input()
    .resize(inner, inner, { fit: 'contain', background: transparent })
    .png()
    .toBuffer();
  const maskable512 = await sharp({
    create: { width: 512, height: 512, channels: 4, background: backgroundColor },
  })
    .composite([{ input: logoForMask, gravity: 'centre' }])
    .flatten({ background: backgroundColor })
    .png()
    .toBuffer();
  const version = createHash('sha256')
    .update(source)
    .update(backgroundColor)
    .digest('hex')
    .slice(0, 16);
  return { version, icon192: await square(192), icon512: await square(512), maskable512 };
}
