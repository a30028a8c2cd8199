import { forceLinting } from '@codemirror/lint';
import { EditorView } from '@codemirror/view';
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CheckSyntaxResponse, LuaSyntaxError } from '../../common/scripts.ts';
import { json, mockFetch } from '../test/render.tsx';
import { CodeEditor } from './code-editor.tsx';

const LUAU = 'local n: number = 1\nn += 1\nprint(`n is {n}`)\n';
const BROKEN: LuaSyntaxError = {
  line: 2,
  column: 6,
  message: 'unexpected token `(`, expected `)` to close function call',
};

/** The server's check: refuses any text holding "print(x" as it would, accepts the rest. */
function syntaxServer() {
  const asked: string[] = [];
  const fetchMock = mockFetch({
    'POST /api/admin/scripts/check-syntax': (init) => {
      const { content } = JSON.parse(String(init?.body)) as { content: string };
      asked.push(content);
      const answer: CheckSyntaxResponse = content.includes('print(x\n')
        ? { ok: false, error: `Lua syntax error on line 2: ${BROKEN.message}`, syntaxError: BROKEN }
        : { ok: true };
      return json(answer);
    },
  });
  return { asked, fetchMock };
}

function renderEditor(value: string) {
  render(<CodeEditor value={value} onChange={() => {}} label="Script editor" />);
  const view = EditorView.findFromDOM(screen.getByRole('textbox', { name: 'Script editor' }));
  if (!view) throw new Error('no editor view');
  return view;
}

const errorMarks = () => document.querySelectorAll('.cm-lint-marker-error');

beforeAll(() => {
  // CodeMirror measures text; jsdom does not.
  const emptyRects = () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
  Range.prototype.getClientRects ??= emptyRects;
  Range.prototype.getBoundingClientRect ??= () => new DOMRect();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('CodeEditor live syntax check', () => {
  it('asks the server about the text and marks the line it refuses', async () => {
    const { asked } = syntaxServer();
    const view = renderEditor('local x = 1\nprint(x\n');
    act(() => forceLinting(view));
    await waitFor(() => expect(errorMarks()).toHaveLength(1));
    expect(asked.at(-1)).toBe('local x = 1\nprint(x\n');
    const marked = document.querySelector('.cm-lintRange-error');
    expect(marked?.closest('.cm-line')?.textContent).toBe('print(x');
  });

  it('clears the mark once the text is fixed, and leaves Luau unmarked', async () => {
    const { asked } = syntaxServer();
    const view = renderEditor('local x = 1\nprint(x\n');
    act(() => forceLinting(view));
    await waitFor(() => expect(errorMarks()).toHaveLength(1));

    act(() => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: LUAU } }));
    act(() => forceLinting(view));
    await waitFor(() => expect(errorMarks()).toHaveLength(0));
    expect(asked.at(-1)).toBe(LUAU);
  });

  it('stays quiet when the server cannot answer', async () => {
    const fetchMock = mockFetch({});
    const view = renderEditor('local x = 1\nprint(x\n');
    act(() => forceLinting(view));
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    // Let the failed answer arrive and the (empty) diagnostics land.
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(errorMarks()).toHaveLength(0);
  });
});
