import { describe, expect, it } from 'vitest';
import { contrastRatio, fromSrgb8 } from '../test/contrast.ts';
import { readableHighlightStyle, STONE } from './code-editor-theme.ts';

const hex = (color: string) =>
  fromSrgb8(
    Number.parseInt(color.slice(1, 3), 16),
    Number.parseInt(color.slice(3, 5), 16),
    Number.parseInt(color.slice(5, 7), 16),
  );

/** One Dark's editor background and its active line's. */
const BACKGROUNDS = ['#282c34', '#2c313a'];

describe('the code editor theme', () => {
  it('draws every highlighted token and the line numbers at 4.5:1 or more', () => {
    const colors = new Set([STONE]);
    for (const spec of readableHighlightStyle.specs) {
      if (typeof spec.color === 'string') colors.add(spec.color);
    }
    const short = [...colors].flatMap((color) =>
      BACKGROUNDS.map((background) => ({
        color,
        background,
        ratio: contrastRatio(hex(color), hex(background)),
      }))
        .filter(({ ratio }) => ratio < 4.5)
        .map(({ background, ratio }) => `${color} on ${background}: ${ratio.toFixed(2)}:1`),
    );
    expect(colors.size).toBeGreaterThan(8);
    expect(short).toEqual([]);
  });
});
