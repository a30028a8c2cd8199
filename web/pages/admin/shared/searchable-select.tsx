import { Check, ChevronsUpDown } from 'lucide-react';
import { Popover as PopoverPrimitive } from 'radix-ui';
import { type KeyboardEvent, useId, useRef, useState } from 'react';
import { cn } from '@/lib/cn.ts';

/** One choice: `label` names it (masked where secret), `detail` adds a line under it. */
export interface SearchableOption<T extends string | number> {
  value: T;
  label: string;
  detail?: string;
  /** Extra text the search matches (e.g. the unmasked value, notes), never shown. */
  keywords?: string;
  /** Shown but not choosable; `detail` should say why. */
  disabled?: boolean;
}

export interface SearchableSelectProps<T extends string | number> {
  /** The id a <Label htmlFor> points at (FormField hands it over). */
  id?: string;
  'aria-invalid'?: true;
  value: T | null;
  /** undefined while loading. */
  options: readonly SearchableOption<T>[] | undefined;
  onChange: (value: T | null) => void;
  onBlur?: () => void;
  /** The first entry, which clears the choice. */
  noneLabel: string;
  placeholder: string;
  /** Said in the list when the search matches nothing. */
  emptyText: string;
  /** Said in the list when the options could not be loaded. */
  loadError?: string | null;
}

/**
 * A searchable single choice: a text field (an ARIA combobox) filtering a list below it. Arrow keys
 * move through the matches, Enter picks, Escape closes the list only. The list is a Radix popover
 * portalled into the surrounding dialog (when there is one), so it scrolls and layers with it.
 */
export function SearchableSelect<T extends string | number>({
  id,
  'aria-invalid': invalid,
  value,
  options,
  onChange,
  onBlur,
  noneLabel,
  placeholder,
  emptyText,
  loadError,
}: SearchableSelectProps<T>) {
  const listId = useId();
  const optionIdPrefix = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [activeIndex, setActiveIndex] = useState(0);

  const selected = options?.find((option) => option.value === value);
  // The none entry comes first and always shows, so a choice can be cleared whatever is typed.
  const entries: SearchableOption<T | typeof NONE>[] = [
    { value: NONE, label: noneLabel },
    ...(options ?? []).filter((option) => matches(option, query)),
  ];
  const active = Math.min(activeIndex, entries.length - 1);
  const optionId = (index: number) => `${optionIdPrefix}-${index}`;

  const openList = () => {
    if (open) return;
    setOpen(true);
    setQuery('');
    setActiveIndex(
      Math.max(
        0,
        entries.findIndex((entry) => entry.value === (value ?? NONE)),
      ),
    );
  };
  const closeList = () => {
    setOpen(false);
    setQuery('');
  };
  const choose = (entry: SearchableOption<T | typeof NONE>) => {
    if (entry.disabled) return;
    onChange(entry.value === NONE ? null : (entry.value as T));
    closeList();
  };
  const move = (step: number) => {
    if (!open) return openList();
    let next = active;
    for (let tries = 0; tries < entries.length; tries++) {
      next = (next + step + entries.length) % entries.length;
      if (!entries[next]?.disabled) break;
    }
    setActiveIndex(next);
    document.getElementById(optionId(next))?.scrollIntoView({ block: 'nearest' });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') move(1);
    else if (event.key === 'ArrowUp') move(-1);
    else if (event.key === 'Enter' && open) {
      const entry = entries[active];
      if (entry) choose(entry);
    } else return;
    event.preventDefault();
  };

  // Inside a dialog, the list goes into the dialog's own DOM: its scroll lock and focus trap allow it.
  const container = inputRef.current?.closest<HTMLElement>('[role="dialog"]') ?? undefined;

  return (
    <PopoverPrimitive.Root open={open} onOpenChange={(next) => (next ? openList() : closeList())}>
      <PopoverPrimitive.Anchor asChild>
        <div className="relative">
          <input
            ref={inputRef}
            id={id}
            role="combobox"
            aria-expanded={open}
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={open ? optionId(active) : undefined}
            aria-invalid={invalid}
            autoComplete="off"
            spellCheck={false}
            className="flex h-10 w-full rounded-md border border-input bg-transparent py-2 pl-3 pr-9 text-sm placeholder:text-muted-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            placeholder={selected ? selected.label : placeholder}
            value={open ? query : (selected?.label ?? '')}
            onChange={(event) => {
              openList();
              setQuery(event.target.value);
              setActiveIndex(event.target.value ? 1 : 0);
            }}
            onClick={openList}
            onKeyDown={onKeyDown}
            onBlur={onBlur}
          />
          <ChevronsUpDown
            className="pointer-events-none absolute right-3 top-3 h-4 w-4 opacity-50"
            aria-hidden="true"
          />
        </div>
      </PopoverPrimitive.Anchor>
      <PopoverPrimitive.Portal container={container}>
        <PopoverPrimitive.Content
          role="presentation"
          align="start"
          sideOffset={4}
          // Focus stays in the text field: the list is driven from it (aria-activedescendant).
          onOpenAutoFocus={(event) => event.preventDefault()}
          onCloseAutoFocus={(event) => event.preventDefault()}
          onInteractOutside={(event) => {
            if (event.target === inputRef.current) event.preventDefault();
          }}
          className="z-50 w-[var(--radix-popover-trigger-width)] rounded-md border bg-popover p-1 text-popover-foreground shadow-md"
        >
          <div id={listId} role="listbox" className="max-h-60 overflow-y-auto">
            {entries.map((entry, index) => (
              // The combobox pattern: focus stays in the text field, which moves through the options
              // (aria-activedescendant) and picks with Enter; options are never focused themselves.
              // biome-ignore lint/a11y/useFocusableInteractive: see above
              // biome-ignore lint/a11y/useKeyWithClickEvents: the text field handles the keys
              <div
                key={String(entry.value)}
                id={optionId(index)}
                role="option"
                aria-selected={entry.value === (value ?? NONE)}
                aria-disabled={entry.disabled || undefined}
                // Keep focus in the field; the click picks.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => choose(entry)}
                onMouseMove={() => !entry.disabled && setActiveIndex(index)}
                className={cn(
                  'relative flex cursor-default select-none flex-col rounded-sm py-1.5 pl-8 pr-2 text-sm',
                  index === active && 'bg-accent text-accent-foreground',
                  entry.disabled && 'opacity-50',
                )}
              >
                {entry.value === (value ?? NONE) && (
                  <Check className="absolute left-2 top-2 h-4 w-4" aria-hidden="true" />
                )}
                <span className={cn(entry.value !== NONE && 'font-mono text-xs')}>{entry.label}</span>
                {entry.detail && <span className="text-xs text-muted-foreground">{entry.detail}</span>}
              </div>
            ))}
            {options === undefined && !loadError && (
              <p className="px-2 py-1.5 text-sm text-muted-foreground">Loading...</p>
            )}
            {loadError && <p className="px-2 py-1.5 text-sm text-destructive">{loadError}</p>}
            {options !== undefined && entries.length === 1 && (
              <p className="px-2 py-1.5 text-sm text-muted-foreground">{emptyText}</p>
            )}
          </div>
        </PopoverPrimitive.Content>
      </PopoverPrimitive.Portal>
    </PopoverPrimitive.Root>
  );
}

/** The none entry's value: never a real option's. */
const NONE = '\u0000none';

function matches(option: SearchableOption<string | number>, query: string): boolean {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = `${option.label} ${option.detail ?? ''} ${option.keywords ?? ''}`.toLowerCase();
  return words.every((word) => text.includes(word));
}
