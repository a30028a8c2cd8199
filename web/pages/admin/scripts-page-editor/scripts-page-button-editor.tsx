import { TriangleAlert } from 'lucide-react';
import { cn } from '@/lib/cn.ts';
import { BUTTON_VARIANTS, DOWNLOAD_TYPES, type ScriptsPageButton } from '../../../../common/scripts-page.ts';
import { ItemControls, SelectField, TextField } from '../shared/field-controls.tsx';
import type { ButtonChange, MoveDirection } from './scripts-page-draft.ts';

/** What each download type does for a visitor, as the select names it. */
const DOWNLOAD_TYPE_LABELS: Record<(typeof DOWNLOAD_TYPES)[number], string> = {
  file: 'Download file',
  script: 'Copy loader',
};

/** One button of a section: its label, file, what it does, its look, visibility and place. */
export function ScriptsPageButtonEditor({
  button,
  fileListId,
  problem = null,
  canMoveUp,
  canMoveDown,
  onChange,
  onMove,
  onDelete,
}: {
  button: ScriptsPageButton;
  /** The id of a <datalist> of known script files, offered as the File field's suggestions. */
  fileListId?: string;
  /** What a visitor pressing it would run into (button-file-check.ts), or null. */
  problem?: string | null;
  canMoveUp: boolean;
  canMoveDown: boolean;
  onChange: (change: ButtonChange) => void;
  onMove: (direction: MoveDirection) => void;
  onDelete: () => void;
}) {
  const name = button.label.trim() || 'Untitled button';
  return (
    <fieldset
      aria-label={`Button ${name}`}
      className={cn('grid gap-3 rounded-md border bg-muted/20 p-3', !button.visible && 'opacity-70')}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="truncate text-sm font-medium">
          {name}
          {!button.visible && <span className="ml-2 text-xs text-muted-foreground">(hidden)</span>}
        </span>
        <ItemControls
          subject={`button ${name}`}
          visible={button.visible}
          onVisibleChange={(visible) => onChange({ visible })}
          canMoveUp={canMoveUp}
          canMoveDown={canMoveDown}
          onMove={onMove}
          confirmDelete={{
            title: 'Delete this button?',
            description: `"${name}" is removed from its section. Visitors stop seeing it once you save.`,
            confirmLabel: 'Delete Button',
          }}
          onDelete={onDelete}
        />
      </div>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <TextField
          label="Label"
          value={button.label}
          maxLength={100}
          onValueChange={(label) => onChange({ label })}
        />
        <TextField
          label="File"
          value={button.file}
          maxLength={255}
          list={fileListId}
          autoComplete="off"
          spellCheck={false}
          className="font-mono"
          onValueChange={(file) => onChange({ file })}
        />
        <SelectField
          label="Action"
          value={button.downloadType}
          options={DOWNLOAD_TYPES}
          renderOption={(type) => DOWNLOAD_TYPE_LABELS[type]}
          onValueChange={(downloadType) => onChange({ downloadType })}
        />
        <SelectField
          label="Style"
          value={button.variant}
          options={BUTTON_VARIANTS}
          onValueChange={(variant) => onChange({ variant })}
        />
      </div>
      {problem && (
        <p className="flex gap-2 text-sm text-amber-300">
          <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          {problem}
        </p>
      )}
    </fieldset>
  );
}
