import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import type { Extension } from '@codemirror/state';
import { oneDarkHighlightStyle, oneDarkTheme } from '@codemirror/theme-one-dark';
import { EditorView } from '@codemirror/view';

/*
 * One Dark, readable: the same palette, with the colours that fall short of WCAG AA's 4.5:1 for
 * 13 px text, on its background (#282c34) or the active line's (#2c313a), lightened.
 */

/** Comments and line numbers: #7d8799 (3.9:1) becomes 5.3:1, 4.9:1 on the active line. */
export const STONE = '#969fb0';

/** One Dark's colour -> a lighter one of the same hue. */
export const READABLE_COLORS: Readonly<Record<string, string>> = {
  '#7d8799': STONE,
  // Names and properties: 4.4:1 -> 5.4:1 (5.1:1).
  '#e06c75': '#e8848d',
  // Keywords: 4.8:1 (4.4:1 on the active line) -> 5.4:1 (5.0:1).
  '#c678dd': '#cb86e0',
};

/** One Dark's highlighting, tag for tag, in the readable colours. */
export const readableHighlightStyle = HighlightStyle.define(
  oneDarkHighlightStyle.specs.map((spec) =>
    typeof spec.color === 'string' && READABLE_COLORS[spec.color]
      ? { ...spec, color: READABLE_COLORS[spec.color] }
      : spec,
  ),
);

/** Line numbers and gutter markers; `&.cm-editor` outranks One Dark's own rule whatever the order. */
const readableGutters = EditorView.theme({ '&.cm-editor .cm-gutters': { color: STONE } }, { dark: true });

/** The editor's theme: One Dark's editor styles and highlighting, every text colour at 4.5:1 or more. */
export const readableOneDark: Extension = [
  oneDarkTheme,
  readableGutters,
  syntaxHighlighting(readableHighlightStyle),
];
