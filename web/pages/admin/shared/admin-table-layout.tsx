import type { ComponentProps, ReactNode } from 'react';
import { Table, TableBody, TableCell, TableRow } from '@/components/ui/table.tsx';
import { cn } from '@/lib/cn.ts';
import { AdminTableHeader } from './admin-table-header.tsx';

/*
 * The admin list tables' one layout, in two shapes from one DOM (so tests, screen readers and the
 * two shapes never disagree):
 * - from Tailwind's `md` up, a plain table whose cells wrap or cut long values (with the whole
 *   value in a tooltip), so every column fits a 1280 px window beside the sidebar;
 * - on phones, every row is a card and every cell a "label  value" line, the label being the
 *   column's name from the cell's data-label, so Status and Actions stay in view with no sideways
 *   scrolling. The header row is then left to screen readers.
 */

/** A list table: the header row from `columns`, then `children` (AdminRow, MessageRow…) as its body. */
export function AdminTable({
  columns,
  busy,
  children,
}: {
  columns: readonly string[];
  /** aria-busy on the body, while its rows are placeholders. */
  busy?: boolean;
  children: ReactNode;
}) {
  return (
    <Table className="max-md:block max-md:[&>thead]:sr-only">
      <AdminTableHeader columns={columns} />
      <TableBody
        aria-busy={busy}
        className="max-md:flex max-md:flex-col max-md:gap-3 max-md:px-3 max-md:py-2"
      >
        {children}
      </TableBody>
    </Table>
  );
}

/** A row; a card on phones (a ring rather than a border, which the table's last-row rule would remove). */
export function AdminRow({ className, ...props }: ComponentProps<typeof TableRow>) {
  return (
    <TableRow
      className={cn(
        'max-md:block max-md:rounded-lg max-md:border-0 max-md:px-3 max-md:py-1 max-md:ring-1 max-md:ring-border',
        className,
      )}
      {...props}
    />
  );
}

export interface AdminCellProps extends Omit<ComponentProps<typeof TableCell>, 'children'> {
  /** The column's name, shown before the value on phones: it must be the header's text. */
  label: string;
  /** A long value (a key, device, details): on phones it goes under its label, full width. */
  wide?: boolean;
  children?: ReactNode;
}

/** A cell that knows its column's name, for the phone layout. */
export function AdminCell({ label, wide = false, className, children, ...props }: AdminCellProps) {
  return (
    <TableCell
      data-label={label}
      className={cn(
        'px-1.5 max-md:px-0 max-md:py-2 max-md:before:font-sans max-md:before:text-xs max-md:before:font-medium max-md:before:text-muted-foreground max-md:before:content-[attr(data-label)]',
        wide
          ? 'max-md:flex max-md:flex-col max-md:gap-1'
          : 'max-md:grid max-md:grid-cols-[7rem_minmax(0,1fr)] max-md:items-center max-md:gap-3',
        className,
      )}
      {...props}
    >
      {/* One box for the value, so the phone grid has exactly two cells: label and value. */}
      <div className="min-w-0">{children}</div>
    </TableCell>
  );
}

/** The Actions cell: its controls right-aligned in the table, after the label on phones. */
export function ActionsCell({ children }: { children: ReactNode }) {
  return (
    <AdminCell label="Actions">
      <div className="flex items-center gap-1 md:justify-end">{children}</div>
    </AdminCell>
  );
}
