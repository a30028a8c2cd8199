import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { contrastRatio, fromSrgb8, type LinearRgb, over, parseOklch } from './test/contrast.ts';

/*
 * WCAG AA for the theme in styles.css, computed from the colours themselves: 4.5:1 for text and
 * 3:1 for what identifies a control (input borders, switch tracks) and for the focus outline.
 * The console and the public site are dark, so the dark theme is what people see; the light one
 * is held to the same bar.
 */

// Read as text: the test run does not process CSS imports.
const css = readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'styles.css'), 'utf8');

/** The `--color-*` variables of the block that starts at `opening` (e.g. '@theme {'). */
function themeColors(opening: string): Record<string, string> {
  const start = css.indexOf(opening);
  if (start < 0) throw new Error(`${opening} not found in styles.css`);
  const block = css.slice(start, css.indexOf('}', start));
  return Object.fromEntries(
    [...block.matchAll(/--color-([\w-]+):\s*([^;]+);/g)].map(([, name, value]) => [name, value]),
  );
}

const light = themeColors('@theme {');
const THEMES = { light, dark: { ...light, ...themeColors('.dark {') } };

/** A theme colour, optionally at `alpha` (Tailwind's `bg-primary/15`) over an opaque theme colour. */
type Paint = string | { color: string; alpha: number; over: string };

function resolve(theme: Record<string, string>, paint: Paint): LinearRgb {
  const named = (name: string) => {
    if (!theme[name]) throw new Error(`--color-${name} is not in the theme`);
    return parseOklch(theme[name]);
  };
  if (typeof paint === 'string') return named(paint);
  return over({ ...named(paint.color), alpha: paint.alpha }, named(paint.over));
}

const describePaint = (paint: Paint) =>
  typeof paint === 'string' ? paint : `${paint.color}/${paint.alpha * 100} over ${paint.over}`;

/** [foreground, background, minimum ratio]: the pairs the components put together. */
const PAIRS: [Paint, Paint, number][] = [
  ['foreground', 'background', 4.5],
  ['card-foreground', 'card', 4.5],
  ['popover-foreground', 'popover', 4.5],
  ['muted-foreground', 'background', 4.5],
  ['muted-foreground', 'card', 4.5],
  ['muted-foreground', 'muted', 4.5],
  ['secondary-foreground', 'secondary', 4.5],
  ['accent-foreground', 'accent', 4.5],
  // Filled buttons, badges and toasts, at rest and hovered (bg-primary/90 over the card).
  ['primary-foreground', 'primary', 4.5],
  ['primary-foreground', { color: 'primary', alpha: 0.9, over: 'card' }, 4.5],
  ['destructive-foreground', 'destructive', 4.5],
  ['destructive-foreground', { color: 'destructive', alpha: 0.9, over: 'card' }, 4.5],
  ['success-foreground', 'success', 4.5],
  // Coloured text: links, the PREMIUM badge (text-primary on bg-primary/15), form errors.
  ['primary', 'card', 4.5],
  ['primary', 'background', 4.5],
  ['primary', { color: 'primary', alpha: 0.15, over: 'card' }, 4.5],
  ['destructive', 'card', 4.5],
  ['destructive', 'background', 4.5],
  // Control boundaries (input and outline button borders, the switch's off track) and focus.
  ['input', 'background', 3],
  ['input', 'card', 3],
  ['ring', 'background', 3],
  ['ring', 'card', 3],
  ['ring', 'popover', 3],
  ['ring', 'muted', 3],
];

describe.each(Object.entries(THEMES))('the %s theme', (_name, theme) => {
  it.each(PAIRS.map(([fg, bg, min]) => [describePaint(fg), describePaint(bg), min, fg, bg] as const))(
    '%s on %s reaches %s:1',
    (_fg, _bg, min, fg, bg) => {
      const ratio = contrastRatio(resolve(theme, fg), resolve(theme, bg));
      expect(Math.round(ratio * 100) / 100).toBeGreaterThanOrEqual(min);
    },
  );
});

describe('the contrast maths', () => {
  it('matches the WCAG extremes and a known pair', () => {
    const black = parseOklch('oklch(0 0 0)');
    const white = parseOklch('oklch(1 0 0)');
    expect(contrastRatio(black, white)).toBeCloseTo(21, 1);
    expect(contrastRatio(white, white)).toBe(1);
    // Tailwind's zinc-500 is #71717b, which WCAG checkers put at 4.83:1 on white.
    expect(contrastRatio(parseOklch('oklch(0.552 0.016 285.938)'), white)).toBeCloseTo(4.83, 2);
    expect(contrastRatio(fromSrgb8(0x71, 0x71, 0x7b), white)).toBeCloseTo(4.83, 2);
  });
});

describe('the dark theme', () => {
  it("asks the browser for dark native parts (the date picker's icon, scrollbars)", () => {
    const block = css.slice(css.indexOf('.dark {'), css.indexOf('}', css.indexOf('.dark {')));
    expect(block).toMatch(/color-scheme:\s*dark;/);
  });
});
