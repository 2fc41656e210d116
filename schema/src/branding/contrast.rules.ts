/**
 * Colour contrast (WCAG 2.x): the branded app puts white text on the theme colour, so a colour
 * too light for it is explained and a readable neighbour is suggested (issue 14), rather than
 * dropped silently.
 */
export const AA_TEXT_CONTRAST = 4.5;

const hexPattern = /^#[0-9a-f]{6}$/i;

export const isHexColour = (value: string) => hexPattern.test(value);

function channels(hex: string): [number, number, number] {
  return [1, 3, 5].map((offset) => parseInt(hex.slice(offset, offset + 2), 16)) as [
    number,
    number,
    number,
  ];
}

function relativeLuminance(hex: string): number {
  const [r, g, b] = channels(hex).map((value) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [
    number,
    number,
  ];
  return (light + 0.05) / (dark + 0.05);
}

/** White text on this colour reads at WCAG AA (4.5:1). */
export function readableWithWhiteText(hex: string): boolean {
  return isHexColour(hex) && contrastRatio(hex, '#ffffff') >= AA_TEXT_CONTRAST;
}

const toHex = (rgb: readonly number[]) =>
  `#${rgb.map((value) => Math.round(value).toString(16).padStart(2, '0')).join('')}`;

/**
 * The nearest colour to `hex` that carries white text at AA: the same hue, darkened just enough
 * (each channel scaled toward black by the least factor that passes, found by bisection).
 * A colour that passes already is returned as it is.
 */
export function nearestReadableColour(hex: string): string {
  const colour = hex.toLowerCase();
  if (!isHexColour(colour)) throw new Error(`not a #rrggbb colour: ${hex}`);
  if (readableWithWhiteText(colour)) return colour;
  const rgb = channels(colour);
  const scaled = (factor: number) => toHex(rgb.map((value) => value * factor));
  let passing = 0; // black always passes
  let failing = 1;
  for (let step = 0; step < 24; step += 1) {
    const middle = (passing + failing) / 2;
    if (readableWithWhiteText(scaled(middle))) passing = middle;
    else failing = middle;
  }
  return scaled(passing);
}
