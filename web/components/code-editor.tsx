import { closeBrackets, closeBracketsKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import {
  bracketMatching,
  defaultHighlightStyle,
  foldGutter,
  foldKeymap,
  indentOnInput,
  StreamLanguage,
  syntaxHighlighting,
} from '@codemirror/language';
import { lua } from '@codemirror/legacy-modes/mode/lua';
import { type Diagnostic, forceLinting, linter, lintGutter, lintKeymap } from '@codemirror/lint';
import { highlightSelectionMatches, searchKeymap } from '@codemirror/search';
import { EditorState, type Extension, type Text } from '@codemirror/state';
import {
  drawSelection,
  dropCursor,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
  rectangularSelection,
} from '@codemirror/view';
import { useEffect, useId, useRef } from 'react';
import { apiRequest } from '@/lib/api.ts';
import { cn } from '@/lib/cn.ts';
import type { CheckSyntaxResponse, LuaSyntaxError } from '../../common/scripts.ts';
import { readableOneDark } from './code-editor-theme.ts';

/** Lua highlighting from CodeMirror's legacy modes (Lua 5.1 keywords and builtins). */
export const luaLanguage = StreamLanguage.define(lua);

/**
 * CodeMirror's usual editing setup (what the `codemirror` package's basicSetup bundles, minus
 * autocompletion), from the @codemirror packages directly. Tab indents; Escape then Tab leaves the
 * editor (CodeMirror's own escape hatch for keyboard users).
 */
const editingSetup: Extension = [
  lineNumbers(),
  highlightActiveLineGutter(),
  highlightSpecialChars(),
  history(),
  foldGutter(),
  drawSelection(),
  dropCursor(),
  EditorState.allowMultipleSelections.of(true),
  indentOnInput(),
  syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
  bracketMatching(),
  closeBrackets(),
  rectangularSelection(),
  highlightActiveLine(),
  highlightSelectionMatches(),
  keymap.of([
    ...closeBracketsKeymap,
    ...defaultKeymap,
    ...searchKeymap,
    ...historyKeymap,
    ...foldKeymap,
    ...lintKeymap,
    indentWithTab,
  ]),
];

/** The editor grows with its text from this height; past 80% of the window it scrolls instead. */
const editorSizing = EditorView.theme({
  '&': { maxHeight: '80vh', fontSize: '13px' },
  '.cm-scroller': { overflow: 'auto' },
  '.cm-content, .cm-gutter': { minHeight: '500px' },
});

/** What the hint under the editor says: Tab indents, so leaving by keyboard takes Escape first. */
export const EDITOR_KEYBOARD_HINT =
  'Tab indents. To leave the editor with the keyboard, press Escape, then Tab (or Ctrl-M to make Tab move focus).';

/** Pauses this long after typing before the live check parses the text again. */
const LINT_DELAY_MS = 400;

/**
 * The server's verdict on `text` (the parser a save goes through), or undefined when there is none
 * to give: a blank text, or no answer (offline, signed out). The save still checks, so the live
 * check may stay quiet rather than guess.
 */
export async function checkLuaSyntax(text: string): Promise<LuaSyntaxError | null | undefined> {
  if (text.trim() === '') return null;
  try {
    const answer = await apiRequest<CheckSyntaxResponse>('POST', '/api/admin/scripts/check-syntax', {
      content: text,
    });
    return answer.ok ? null : answer.syntaxError;
  } catch {
    return undefined;
  }
}

/** A 1-based line and column as a document range: the rest of that line, at least one character. */
function rangeOf(doc: Text, at: LuaSyntaxError): { from: number; to: number } {
  const line = doc.line(Math.min(Math.max(at.line, 1), doc.lines));
  const from = line.from + Math.min(Math.max(at.column - 1, 0), line.length);
  return { from, to: Math.max(line.to, Math.min(from + 1, doc.length)) };
}

export interface CodeEditorProps {
  /** The text shown; edits come back through `onChange`, so the parent owns the value. */
  value: string;
  onChange: (value: string) => void;
  /** Accessible name of the editing area, e.g. "Script editor". */
  label: string;
  /** A syntax error the server refused the text for: marked as an error like the live check's. */
  serverError?: LuaSyntaxError | null;
  /** Ctrl-S (Cmd-S on a Mac) inside the editor: saves instead of the browser's "Save page". */
  onSaveShortcut?: () => void;
  className?: string;
}

/**
 * A Lua editor (CodeMirror 6, dark): highlighting, line numbers, search, bracket matching, and a
 * live syntax check that asks the server (Lua 5.1-5.4 and Luau), so a refused save is seldom a surprise.
 * The view is built once; later `value` props only replace the text when it differs from what the
 * editor already holds, so typing never rebuilds the editor or loses the cursor.
 */
export function CodeEditor({
  value,
  onChange,
  label,
  serverError = null,
  onSaveShortcut,
  className,
}: CodeEditorProps) {
  const parentRef = useRef<HTMLDivElement>(null);
  const hintId = useId();
  const viewRef = useRef<EditorView | null>(null);
  // Read by the view's listeners, which are created once: always the latest props.
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const serverErrorRef = useRef(serverError);
  const onSaveShortcutRef = useRef(onSaveShortcut);
  onSaveShortcutRef.current = onSaveShortcut;
  const valueRef = useRef(value);
  valueRef.current = value;

  useEffect(() => {
    const parent = parentRef.current;
    if (!parent) return;
    const syntaxCheck = linter(
      // CodeMirror drops the answer when the text changed while the server was asked.
      async (view) => {
        const doc = view.state.doc;
        const diagnostics: Diagnostic[] = [];
        const live = await checkLuaSyntax(doc.toString());
        if (live) diagnostics.push({ ...rangeOf(doc, live), severity: 'error', message: live.message });
        const refused = serverErrorRef.current;
        // The server usually agrees with the live check; one mark per spot is enough.
        if (refused && !(live && live.line === refused.line && live.message === refused.message)) {
          diagnostics.push({
            ...rangeOf(doc, refused),
            severity: 'error',
            source: 'server',
            message: `Refused by the server: ${refused.message}`,
          });
        }
        return diagnostics;
      },
      { delay: LINT_DELAY_MS },
    );
    const view = new EditorView({
      doc: valueRef.current,
      parent,
      extensions: [
        keymap.of([
          {
            key: 'Mod-s',
            preventDefault: true,
            run: () => {
              onSaveShortcutRef.current?.();
              return true;
            },
          },
        ]),
        editingSetup,
        luaLanguage,
        readableOneDark,
        editorSizing,
        syntaxCheck,
        lintGutter(),
        // tabindex: the text area is a Tab stop of its own, so the scroller around it counts as
        // reachable by keyboard (axe: scrollable-region-focusable); the hint says how to leave it.
        EditorView.contentAttributes.of({ 'aria-label': label, 'aria-describedby': hintId, tabindex: '0' }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChangeRef.current(update.state.doc.toString());
        }),
      ],
    });
    viewRef.current = view;
    return () => {
      view.destroy();
      viewRef.current = null;
    };
  }, [label, hintId]);

  // Text from outside (another script, a loaded version): replace the document in one change.
  useEffect(() => {
    const view = viewRef.current;
    if (!view || view.state.doc.toString() === value) return;
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: value } });
  }, [value]);

  // A new server verdict (or none) shows at once rather than after the next edit.
  useEffect(() => {
    serverErrorRef.current = serverError;
    const view = viewRef.current;
    if (view) forceLinting(view);
  }, [serverError]);

  return (
    <>
      <div
        ref={parentRef}
        data-testid="code-editor"
        className={cn('overflow-hidden rounded-md border border-input', className)}
      />
      <p id={hintId} className="text-xs text-muted-foreground">
        {EDITOR_KEYBOARD_HINT}
      </p>
    </>
  );
}
