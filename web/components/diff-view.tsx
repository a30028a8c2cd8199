import { MergeView } from '@codemirror/merge';
import { EditorState } from '@codemirror/state';
import { oneDark } from '@codemirror/theme-one-dark';
import { EditorView, lineNumbers } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { cn } from '@/lib/cn.ts';
import { luaLanguage } from './code-editor.tsx';

const readOnly = [EditorState.readOnly.of(true), EditorView.editable.of(false)];

export interface DiffViewProps {
  /** The older text, shown on the left (e.g. a stored version). */
  original: string;
  /** The left side's heading, e.g. "Version 3". */
  originalLabel: string;
  /** The newer text, shown on the right (e.g. what the editor holds). */
  modified: string;
  /** The right side's heading, e.g. "Editor". */
  modifiedLabel: string;
  className?: string;
}

/**
 * Two read-only Lua texts side by side with their differences marked (CodeMirror's merge view);
 * long unchanged stretches fold away so the changes stand out.
 */
export function DiffView({ original, originalLabel, modified, modifiedLabel, className }: DiffViewProps) {
  const parentRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const parent = parentRef.current;
    if (!parent) return;
    const extensions = [lineNumbers(), luaLanguage, oneDark, ...readOnly];
    const merge = new MergeView({
      a: {
        doc: original,
        extensions: [...extensions, EditorView.contentAttributes.of({ 'aria-label': originalLabel })],
      },
      b: {
        doc: modified,
        extensions: [...extensions, EditorView.contentAttributes.of({ 'aria-label': modifiedLabel })],
      },
      parent,
      collapseUnchanged: { margin: 3, minSize: 6 },
    });
    return () => merge.destroy();
  }, [original, originalLabel, modified, modifiedLabel]);

  return (
    <div className={cn('overflow-hidden rounded-md border border-input', className)}>
      <div className="grid grid-cols-2 border-b border-input bg-muted/40 text-xs font-medium">
        <div className="px-3 py-1.5">{originalLabel}</div>
        <div className="border-l border-input px-3 py-1.5">{modifiedLabel}</div>
      </div>
      <div ref={parentRef} data-testid="diff-view" className="max-h-[60vh] overflow-auto text-[13px]" />
    </div>
  );
}
