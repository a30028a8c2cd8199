import { LoaderCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { TableCell, TableRow } from '@/components/ui/table.tsx';
import { formatDate } from '../../../../common/format.ts';

/* Rows and cells the admin list tables share: the loading and empty rows, dates, notes. */

/** One row across all `columns` with a centred message: an empty state. */
export function MessageRow({ columns, children }: { columns: number; children: ReactNode }) {
  return (
    <TableRow>
      <TableCell colSpan={columns} className="h-24 text-center text-muted-foreground">
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

/** A date ('Never' when missing) that may wrap only between the day and the time. */
export function DateCell({ value }: { value: string | null }) {
  const text = formatDate(value);
  const cut = text.lastIndexOf(', ');
  return (
    <TableCell className="px-2 text-xs text-muted-foreground">
      {cut < 0 ? (
        <span className="whitespace-nowrap">{text}</span>
      ) : (
        <>
          <span className="whitespace-nowrap">{text.slice(0, cut + 1)}</span>{' '}
          <span className="whitespace-nowrap">{text.slice(cut + 2)}</span>
        </>
      )}
    </TableCell>
  );
}

/** The admin's notes under a row's key or code, cut to one line (the whole text in the tooltip). */
export function RowNotes({ notes }: { notes: string | null }) {
  if (!notes) return null;
  return (
    <p className="mt-1 max-w-64 truncate text-xs text-muted-foreground" title={notes}>
      {notes}
    </p>
  );
}
