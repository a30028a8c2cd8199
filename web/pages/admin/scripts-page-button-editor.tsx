import { ArrowDown, ArrowUp, Trash2 } from 'lucide-react';
import { useId } from 'react';
import { ConfirmActionButton } from '@/components/confirm-action-button.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import { cn } from '@/lib/cn.ts';
import { BUTTON_VARIANTS, DOWNLOAD_TYPES, type ScriptsPageButton } from '../../../common/scripts-page.ts';
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
  canMoveUp,
  canMoveDown,
  onChange,
  onMove,
  onDelete,
}: {
  button: ScriptsPageButton;
  /** The id of a <datalist> of known script files, offered as the File field's suggestions. */
  fileListId?: string;
  canMoveUp: boolean;
  canMoveDown: boolean;
  onChange: (change: ButtonChange) => void;
  onMove: (direction: MoveDirection) => void;
  onDelete: () => void;
}) {
  const ids = { label: useId(), file: useId(), type: useId(), variant: useId(), visible: useId() };
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
        <div className="flex items-center gap-1">
          <div className="mr-2 flex items-center gap-2">
            <Switch
              id={ids.visible}
              checked={button.visible}
              onCheckedChange={(visible) => onChange({ visible })}
            />
            <Label htmlFor={ids.visible} className="text-xs text-muted-foreground">
              Visible
            </Label>
          </div>
          <Button
            variant="ghost"
            size="icon"
            className="h-8 w-8"
            aria-label={`Move button ${name} up`}
            title="Move up"
            disabled={!canMoveUp}
            onClick={() => onMove('up')}
          >
            <ArrowUp />
          </Button>
          <Button
            variant="ghost"
            size="icon"
            className="h-8 w-8"
            aria-label={`Move button ${name} down`}
            title="Move down"
            disabled={!canMoveDown}
            onClick={() => onMove('down')}
          >
            <ArrowDown />
          </Button>
          <ConfirmActionButton
            icon={<Trash2 />}
            label={`Delete button ${name}`}
            title="Delete this button?"
            description={`"${name}" is removed from its section. Visitors stop seeing it once you save.`}
            confirmLabel="Delete Button"
            className="text-red-400 hover:text-red-300"
            onConfirm={onDelete}
          />
        </div>
      </div>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <div className="grid gap-1.5">
          <Label htmlFor={ids.label}>Label</Label>
          <Input
            id={ids.label}
            value={button.label}
            maxLength={100}
            onChange={(e) => onChange({ label: e.target.value })}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={ids.file}>File</Label>
          <Input
            id={ids.file}
            value={button.file}
            maxLength={255}
            list={fileListId}
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            onChange={(e) => onChange({ file: e.target.value })}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={ids.type}>Action</Label>
          <Select
            value={button.downloadType}
            onValueChange={(value) => onChange({ downloadType: value as ScriptsPageButton['downloadType'] })}
          >
            <SelectTrigger id={ids.type}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {DOWNLOAD_TYPES.map((type) => (
                <SelectItem key={type} value={type}>
                  {DOWNLOAD_TYPE_LABELS[type]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={ids.variant}>Style</Label>
          <Select
            value={button.variant}
            onValueChange={(value) => onChange({ variant: value as ScriptsPageButton['variant'] })}
          >
            <SelectTrigger id={ids.variant}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {BUTTON_VARIANTS.map((variant) => (
                <SelectItem key={variant} value={variant}>
                  {variant}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      </div>
    </fieldset>
  );
}
