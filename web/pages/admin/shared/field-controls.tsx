import { ArrowDown, ArrowUp, Trash2 } from 'lucide-react';
import { type ComponentProps, type ReactNode, useId } from 'react';
import { ConfirmActionButton } from '@/components/confirm-action-button.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Input, Textarea } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import { cn } from '@/lib/cn.ts';

/*
 * The form pieces the scripts page editor repeats: a labelled field, the Visible switch and the
 * move/delete controls of a section or button. Labels and accessible names are what the component
 * and browser tests find elements by, so they are built here in one way only.
 */

/** Which way a section or button moves in its list. */
export type MoveDirection = 'up' | 'down';

/** A label above its control, tied to it by a generated id; `children` renders the control with that id. */
function LabelledField({
  label,
  className,
  children,
}: {
  label: string;
  /** Extra classes for the wrapper, e.g. `sm:col-span-2`. */
  className?: string;
  children: (id: string) => ReactNode;
}) {
  const id = useId();
  return (
    <div className={cn('grid gap-1.5', className)}>
      <Label htmlFor={id}>{label}</Label>
      {children(id)}
    </div>
  );
}

/**
 * A labelled text field: one line, or a textarea of `rows` lines when `rows` is given. The control
 * reports plain strings through `onValueChange`.
 */
export function TextField({
  label,
  value,
  onValueChange,
  rows,
  list,
  fieldClassName,
  ...controlProps
}: {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  /** Makes the field a textarea this many lines high. */
  rows?: number;
  /** The id of a <datalist> whose entries a one-line field suggests. */
  list?: string;
  /** Extra classes for the field's wrapper (the control's own go in `className`). */
  fieldClassName?: string;
} & Pick<
  ComponentProps<'input'>,
  'maxLength' | 'placeholder' | 'autoComplete' | 'spellCheck' | 'className'
>) {
  return (
    <LabelledField label={label} className={fieldClassName}>
      {(id) => {
        const shared = { ...controlProps, id, value };
        return rows === undefined ? (
          <Input {...shared} list={list} onChange={(e) => onValueChange(e.target.value)} />
        ) : (
          <Textarea {...shared} rows={rows} onChange={(e) => onValueChange(e.target.value)} />
        );
      }}
    </LabelledField>
  );
}

/** A labelled select over a fixed list of values; each option shows `renderOption(value)`, or the value. */
export function SelectField<T extends string>({
  label,
  value,
  options,
  onValueChange,
  renderOption = (option) => option,
  disabled,
}: {
  label: string;
  value: T;
  options: readonly T[];
  onValueChange: (value: T) => void;
  renderOption?: (option: T) => ReactNode;
  disabled?: boolean;
}) {
  return (
    <LabelledField label={label}>
      {(id) => (
        // The select only offers `options`, so every value it reports is a T.
        <Select value={value} disabled={disabled} onValueChange={(next) => onValueChange(next as T)}>
          <SelectTrigger id={id}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {options.map((option) => (
              <SelectItem key={option} value={option}>
                {renderOption(option)}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      )}
    </LabelledField>
  );
}

/** The small "Visible" switch in a section's or button's header row. */
function VisibleSwitch({
  checked,
  onCheckedChange,
}: {
  checked: boolean;
  onCheckedChange: (visible: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="mr-2 flex items-center gap-2">
      <Switch id={id} checked={checked} onCheckedChange={onCheckedChange} />
      <Label htmlFor={id} className="text-xs text-muted-foreground">
        Visible
      </Label>
    </div>
  );
}

const MOVES = [
  { direction: 'up', Icon: ArrowUp },
  { direction: 'down', Icon: ArrowDown },
] as const;

/** Move up and move down, named `Move <subject> up|down` (e.g. "Move section Free up"). */
function MoveButtons({
  subject,
  canMoveUp,
  canMoveDown,
  onMove,
}: {
  subject: string;
  canMoveUp: boolean;
  canMoveDown: boolean;
  onMove: (direction: MoveDirection) => void;
}) {
  const allowed = { up: canMoveUp, down: canMoveDown };
  return MOVES.map(({ direction, Icon }) => (
    <Button
      key={direction}
      variant="ghost"
      size="icon"
      className="h-8 w-8"
      aria-label={`Move ${subject} ${direction}`}
      title={`Move ${direction}`}
      disabled={!allowed[direction]}
      onClick={() => onMove(direction)}
    >
      <Icon />
    </Button>
  ));
}

/** The texts of the dialog that confirms a delete. */
export interface DeleteConfirmation {
  title: string;
  description: string;
  confirmLabel: string;
}

/**
 * The controls of a section's or button's header row: Visible, move up, move down and a delete that
 * asks first. `subject` names the item in the accessible names, e.g. "section Free Scanner".
 */
export function ItemControls({
  subject,
  visible,
  onVisibleChange,
  canMoveUp,
  canMoveDown,
  onMove,
  confirmDelete,
  onDelete,
  className,
}: {
  subject: string;
  visible: boolean;
  onVisibleChange: (visible: boolean) => void;
  canMoveUp: boolean;
  canMoveDown: boolean;
  onMove: (direction: MoveDirection) => void;
  confirmDelete: DeleteConfirmation;
  onDelete: () => void;
  className?: string;
}) {
  return (
    <div className={cn('flex items-center gap-1', className)}>
      <VisibleSwitch checked={visible} onCheckedChange={onVisibleChange} />
      <MoveButtons subject={subject} canMoveUp={canMoveUp} canMoveDown={canMoveDown} onMove={onMove} />
      <ConfirmActionButton
        icon={<Trash2 />}
        label={`Delete ${subject}`}
        {...confirmDelete}
        className="text-red-400 hover:text-red-300"
        onConfirm={onDelete}
      />
    </div>
  );
}
