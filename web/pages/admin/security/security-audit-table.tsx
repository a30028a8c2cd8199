import { memo } from 'react';
import { Badge } from '@/components/ui/badge.tsx';
import { Table, TableBody, TableCell, TableRow } from '@/components/ui/table.tsx';
import { cn } from '@/lib/cn.ts';
import { formatDate } from '../../../../common/format.ts';
import type { AuditLog } from '../../../../common/security.ts';
import { shortLicenseKey } from '../hardware-bindings/hardware-binding-filters.ts';
import { LoadingRow, MessageRow } from '../shared/admin-table-cells.tsx';
import { AdminTableHeader } from '../shared/admin-table-header.tsx';

const COLUMNS = ['Event', 'Result', 'License Key', 'IP Address', 'Hardware ID', 'Timestamp', 'Details'];

/** A details object on one line: `key: value` pairs; nested values as JSON. */
export function formatDetails(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}

/** The audit log rows; `logs` undefined means still loading. */
export function AuditLogTable({ logs }: { logs: AuditLog[] | undefined }) {
  return (
    <Table>
      <AdminTableHeader columns={COLUMNS} />
      <TableBody>
        {logs === undefined ? (
          <LoadingRow columns={COLUMNS.length}>Loading security events...</LoadingRow>
        ) : logs.length === 0 ? (
          <MessageRow columns={COLUMNS.length}>No security events found</MessageRow>
        ) : (
          logs.map((log) => <AuditLogRow key={log.id} log={log} />)
        )}
      </TableBody>
    </Table>
  );
}

/** A missing value in a column. */
const NONE = <span className="text-muted-foreground">-</span>;

// Up to 500 rows: memoised (polling keeps unchanged logs as the same objects) and kept to plain
// elements with native tooltips (title), no per-row popovers or effects.
const AuditLogRow = memo(function AuditLogRow({ log }: { log: AuditLog }) {
  const failed = log.success === 0;
  const details = formatDetails(log.details);
  return (
    <TableRow
      data-log-id={log.id}
      data-result={failed ? 'failed' : 'success'}
      className={cn(failed && 'text-red-400')}
    >
      <TableCell className="whitespace-nowrap px-2 font-mono text-xs">{log.eventType}</TableCell>
      <TableCell className="px-2">
        <Badge
          variant="outline"
          className={
            failed
              ? 'border-red-500/40 bg-red-500/15 text-red-400'
              : 'border-emerald-500/40 bg-emerald-500/15 text-emerald-400'
          }
        >
          {failed ? 'Failed' : 'Success'}
        </Badge>
      </TableCell>
      <TableCell className="whitespace-nowrap px-2 font-mono text-xs" title={log.licenseKey ?? undefined}>
        {log.licenseKey ? shortLicenseKey(log.licenseKey) : NONE}
      </TableCell>
      <TableCell className="whitespace-nowrap px-2 font-mono text-xs">{log.ipAddress ?? NONE}</TableCell>
      <TableCell className="px-2 font-mono text-xs">
        {log.hardwareId ? (
          <span className="block max-w-40 truncate" title={log.hardwareId}>
            {log.hardwareId}
          </span>
        ) : (
          NONE
        )}
      </TableCell>
      <TableCell className="whitespace-nowrap px-2 text-xs">{formatDate(log.timestamp)}</TableCell>
      <TableCell className="px-2 text-xs">
        {details ? (
          <span className="line-clamp-2 block min-w-48 max-w-80 break-words" title={details}>
            {details}
          </span>
        ) : (
          NONE
        )}
      </TableCell>
    </TableRow>
  );
});
