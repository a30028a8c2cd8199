import { RefreshCw, Search } from 'lucide-react';
import { type ReactNode, useId } from 'react';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { cn } from '@/lib/cn.ts';

/*
 * The controls above the key and code lists: the card's title row with its refresh button, the
 * shown-rows badge and the search box. Accessible names come from the caller, since the component
 * and browser tests find the controls by them.
 */

/** The query a list card shows: refreshed by its button, which spins while it fetches. */
interface RefreshableQuery {
  refetch: () => Promise<unknown>;
  isFetching: boolean;
}

/** The list card's title (with whatever follows it, e.g. a CountBadge) and its refresh button. */
export function ListCardTitle({
  children,
  query,
  refreshLabel,
}: {
  children: ReactNode;
  query: RefreshableQuery;
  /** The refresh button's accessible name, e.g. "Refresh script keys". */
  refreshLabel: string;
}) {
  return (
    <div className="flex items-center justify-between gap-2">
      <CardTitle className="flex items-center gap-2 text-lg">{children}</CardTitle>
      <Button
        variant="ghost"
        size="sm"
        onClick={() => void query.refetch()}
        disabled={query.isFetching}
        aria-label={refreshLabel}
      >
        <RefreshCw className={cn(query.isFetching && 'animate-spin')} />
      </Button>
    </div>
  );
}

/**
 * How many rows the list shows: the number, and for screen readers what it counts (`noun`, e.g.
 * "codes"), so it reads "3 codes" (an aria-label on a plain span would not be read).
 */
export function CountBadge({ count, noun }: { count: number; noun: string }) {
  return (
    <Badge variant="secondary" data-testid="count-badge">
      {count}
      <span className="sr-only"> {noun}</span>
    </Badge>
  );
}

/** A search box with a magnifier inside; its label is for screen readers only. */
export function SearchBox({
  label,
  placeholder,
  value,
  onValueChange,
}: {
  label: string;
  placeholder: string;
  value: string;
  onValueChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="relative flex-1">
      <Label htmlFor={id} className="sr-only">
        {label}
      </Label>
      <SearchIcon />
      <Input
        id={id}
        type="search"
        value={value}
        placeholder={placeholder}
        className="pl-9"
        onChange={(e) => onValueChange(e.target.value)}
      />
    </div>
  );
}

/** The magnifier inside a search input (which leaves room for it with `pl-9`). */
export function SearchIcon() {
  return (
    <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted-foreground" />
  );
}
