import { memo } from 'react';
import { Badge } from '@/components/ui/badge.tsx';
import { cn } from '@/lib/cn.ts';
import { auditEventLabel } from '../../../../common/audit-events.ts';
import { shortLicenseKey } from '../../../../common/mask.ts';
import type { AuditLog } from '../../../../common/security.ts';
import { BreakableText, DateText, LoadingRow, MessageRow } from '../shared/admin-table-cells.tsx';
import { AdminCell, AdminRow, AdminTable } from '../shared/admin-table-layout.tsx';

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
    <AdminTable columns={COLUMNS}>
      {logs === undefined ? (
        <LoadingRow columns={COLUMNS.length}>Loading security events...</LoadingRow>
      ) : logs.length === 0 ? (
        <MessageRow columns={COLUMNS.length}>No security events found</MessageRow>
      ) : (
        logs.map((log) => <AuditLogRow key={log.id} log={log} />)
      )}
    </AdminTable>
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
    <AdminRow
      data-log-id={log.id}
      data-result={failed ? 'failed' : 'success'}
      className={cn(failed && 'text-red-400')}
    >
      {/* The event in plain words (wrapping between words), its id as the API names it in the tooltip. */}
      <AdminCell label="Event" className="text-sm md:min-w-[14ch] xl:min-w-[20ch]">
        <span title={log.eventType} data-event-type={log.eventType}>
          {auditEventLabel(log.eventType)}
        </span>
      </AdminCell>
      <AdminCell label="Result">
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
      </AdminCell>
      <AdminCell
        label="License Key"
        className="break-all font-mono text-xs"
        title={log.licenseKey ?? undefined}
      >
        {log.licenseKey ? shortLicenseKey(log.licenseKey) : NONE}
      </AdminCell>
      <AdminCell label="IP Address" className="font-mono text-xs">
        {log.ipAddress ? <BreakableText text={log.ipAddress} separator=":" /> : NONE}
      </AdminCell>
      <AdminCell label="Hardware ID" className="font-mono text-xs md:w-20 xl:w-28">
        {log.hardwareId ? (
          <span className="block w-0 min-w-full truncate" title={log.hardwareId}>
            {log.hardwareId}
          </span>
        ) : (
          NONE
        )}
      </AdminCell>
      <AdminCell label="Timestamp" className="text-xs">
        <DateText value={log.timestamp} />
      </AdminCell>
      <AdminCell label="Details" wide className="text-xs">
        {details ? (
          // Breaks anywhere it must (a long JSON value has no spaces), so it never widens the table.
          <span className="line-clamp-3 block min-w-28 wrap-anywhere max-md:min-w-0" title={details}>
            {details}
          </span>
        ) : (
          NONE
        )}
      </AdminCell>
    </AdminRow>
  );
});
