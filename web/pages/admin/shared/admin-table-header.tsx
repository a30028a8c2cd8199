import { TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { cn } from '@/lib/cn.ts';

/**
 * The header row of an admin list table: one cell a column, the 'Actions' column aligned right.
 * Two-word names may wrap ("Usage / Count") rather than widen a column of short values.
 */
export function AdminTableHeader({ columns }: { columns: readonly string[] }) {
  return (
    <TableHeader>
      <TableRow>
        {columns.map((column) => (
          <TableHead
            key={column}
            className={cn('px-1.5 leading-tight', column === 'Actions' && 'text-right')}
          >
            {column}
          </TableHead>
        ))}
      </TableRow>
    </TableHeader>
  );
}
