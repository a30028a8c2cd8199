/**
 * WCAG 2 contrast for the theme's colours, which web/styles.css writes as `oklch(L C H)`.
 *
 * The conversion is CSS Color 4's (OKLCH -> OKLab -> linear sRGB, Björn Ottosson's matrices), with
 * out-of-gamut channels clipped as Chromium draws them; the ratio is WCAG 2's
 * (L1 + 0.05) / (L2 + 0.05) over relative luminance. Thirty lines of published maths, so no colour
 * library for the tests to depend on.
 */

/** A colour as linear-light sRGB channels in [0, 1], plus alpha. */
export interface LinearRgb {
  r: number;
  g: number;
  b: number;
  alpha: number;
}

const clip = (channel: number) => Math.min(1, Math.max(0, channel));

/** `oklch(0.623 0.214 259.815)` or `oklch(0.5 0.1 20 / 15%)` as linear sRGB. */
export function parseOklch(css: string): LinearRgb {
  const match = /^oklch\(\s*([\d.]+)(%?)\s+([\d.]+)\s+([\d.]+)\s*(?:\/\s*([\d.]+)(%?))?\s*\)$/.exec(
    css.trim(),
  );
  if (!match) throw new Error(`not an oklch() colour: ${css}`);
  const lightness = Number(match[1]) / (match[2] ? 100 : 1);
  const chroma = Number(match[3]);
  const hue = (Number(match[4]) * Math.PI) / 180;
  const alpha = match[5] === undefined ? 1 : Number(match[5]) / (match[6] ? 100 : 1);
  const a = chroma * Math.cos(hue);
  const b = chroma * Math.sin(hue);
  const l = (lightness + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (lightness - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (lightness - 0.0894841775 * a - 1.291485548 * b) ** 3;
  return {
    r: clip(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s),
    g: clip(-1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s),
    b: clip(-0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s),
    alpha,
  };
}

/** 8-bit sRGB channels (what a canvas or getComputedStyle gives) as linear sRGB. */
export function fromSrgb8(r: number, g: number, b: number, alpha = 1): LinearRgb {
  const linear = (channel: number) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return { r: linear(r), g: linear(g), b: linear(b), alpha };
}

/**
 * `top` painted over the opaque `bottom`. Browsers blend in gamma-encoded sRGB, so the mix is done
 * there, not in linear light.
 */
export function over(top: LinearRgb, bottom: LinearRgb): LinearRgb {
  const encode = (c: number) => (c <= 0.0031308 ? c * 12.92 : 1.055 * c ** (1 / 2.4) - 0.055);
  const decode = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const mix = (t: number, u: number) => decode(encode(t) * top.alpha + encode(u) * (1 - top.alpha));
  return { r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b), alpha: 1 };
}

/** WCAG 2 relative luminance. */
export function relativeLuminance({ r, g, b }: LinearRgb): number {
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two opaque colours, from 1 to 21. */
export function contrastRatio(first: LinearRgb, second: LinearRgb): number {
  const [x, y] = [relativeLuminance(first), relativeLuminance(second)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}
