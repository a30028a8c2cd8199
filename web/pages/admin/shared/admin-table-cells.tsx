import { Copy, LoaderCircle } from 'lucide-react';
import { Fragment, type ReactNode } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { TableCell, TableRow } from '@/components/ui/table.tsx';
import { copyToClipboard } from '@/lib/clipboard.ts';
import { cn } from '@/lib/cn.ts';
import { formatDate } from '../../../../common/format.ts';
import { AdminCell } from './admin-table-layout.tsx';

/* Rows and cells the admin list tables share: the loading and empty rows, dates, notes, long values. */

/** One row across all `columns` with a centred message: an empty state. */
export function MessageRow({ columns, children }: { columns: number; children: ReactNode }) {
  return (
    <TableRow className="max-md:block">
      <TableCell
        colSpan={columns}
        className="h-24 text-center text-muted-foreground max-md:block max-md:h-auto max-md:py-8"
      >
        {children}
      </TableCell>
    </TableRow>
  );
}

/** The row shown while the list loads: a spinner and `children` ("Loading script keys..."). */
export function LoadingRow({ columns, children }: { columns: number; children: string }) {
  return (
    <MessageRow columns={columns}>
      <LoaderCircle className="mr-2 inline h-4 w-4 animate-spin" />
      {children}
    </MessageRow>
  );
}

/**
 * A date ('Never' when missing): in the table the day over the time, so date columns stay narrow
 * and leave the width to keys and details; on one line in a phone's card.
 */
export function DateText({ value }: { value: string | null }) {
  const text = formatDate(value);
  const cut = text.lastIndexOf(', ');
  if (cut < 0) return <span className="whitespace-nowrap">{text}</span>;
  return (
    <>
      <span className="whitespace-nowrap md:block">
        {text.slice(0, cut)}
        {/* The comma only joins day and time on one line. */}
        <span className="md:hidden">,</span>
      </span>{' '}
      <span className="whitespace-nowrap md:block">{text.slice(cut + 2)}</span>
    </>
  );
}

/** A date column's cell, in small muted text. */
export function DateCell({ label, value }: { label: string; value: string | null }) {
  return (
    <AdminCell label={label} className="text-xs text-muted-foreground">
      <DateText value={value} />
    </AdminCell>
  );
}

/**
 * A line of text cut with an ellipsis, the whole of it in the tooltip. It takes the width its
 * column has and never widens the column itself (zero width, stretched to the cell), so one long
 * value cannot push the table past the window.
 */
export function CutText({ text, className }: { text: string; className?: string }) {
  return (
    <p className={cn('w-0 min-w-full truncate', className)} title={text}>
      {text}
    </p>
  );
}

/**
 * A long value cut in its middle, so its end stays in view (an id's last characters, a URL's file
 * name): the start gives way first, ending in an ellipsis, and `tail` stays whole, wrapping only
 * when it alone is wider than the space it is given (`className` gives it, e.g. `flex-1` in a row).
 * The whole value is the tooltip, and both parts are text, so a screen reader reads it whole.
 */
export function MiddleCutText({
  value,
  tail,
  className,
}: {
  value: string;
  /** The end of `value` that must stay visible. */
  tail: string;
  className?: string;
}) {
  const head = value.endsWith(tail) ? value.slice(0, value.length - tail.length) : value;
  const end = value.endsWith(tail) ? tail : '';
  return (
    <span className={cn('flex min-w-0', className)} title={value} data-value={value}>
      {head && <span className="min-w-0 truncate">{head}</span>}
      {end && (
        <span className="max-w-full shrink-0 break-all" data-part="tail">
          {end}
        </span>
      )}
    </span>
  );
}

/** A small button that copies `value` ('Copied to clipboard'), named `label` for screen readers and the tooltip. */
export function CopyValueButton({ value, label, what }: { value: string; label: string; what?: string }) {
  return (
    <Button
      variant="ghost"
      size="icon"
      className="h-7 w-7 shrink-0"
      aria-label={label}
      title={label}
      onClick={() => void copyToClipboard(value, what)}
    >
      <Copy />
    </Button>
  );
}

/**
 * A value that may wrap only just after `separator` (an event type after its underscores, an IPv6
 * address after its colons), never mid-word, so it neither widens its column nor breaks unreadably.
 */
export function BreakableText({ text, separator }: { text: string; separator: string }) {
  const parts = text.split(separator);
  return parts.map((part, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string
    <Fragment key={index}>
      {part}
      {index < parts.length - 1 && (
        <>
          {separator}
          <wbr />
        </>
      )}
    </Fragment>
  ));
}

/** The admin's notes under a row's key or code, cut to one line (the whole text in the tooltip). */
export function RowNotes({ notes }: { notes: string | null }) {
  if (!notes) return null;
  return <CutText text={notes} className="mt-1 text-xs text-muted-foreground" />;
}
