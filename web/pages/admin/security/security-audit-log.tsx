import { useEffect, useState } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { cn } from '@/lib/cn.ts';
import {
  AUDIT_PAGE_SIZES,
  type AuditLogListResponse,
  SECURITY_EVENT_TYPES,
} from '../../../../common/security.ts';
import { SelectField } from '../shared/field-controls.tsx';
import { AuditLogTable } from './security-audit-table.tsx';

export const ALL_EVENTS = 'all';

export interface AuditLogFilters {
  /** An event type, or ALL_EVENTS. */
  eventType: string;
  limit: number;
}

const PAGE_SIZE_OPTIONS = AUDIT_PAGE_SIZES.map(String);

/**
 * The event-type filter's choices: all, the licensing path's types, and every other type the log
 * has shown since the screen opened (admin_login, binding_revoked…). Remembered across loads, so
 * picking one type does not make the others disappear from the list.
 */
function useEventTypeOptions(logs: AuditLogListResponse | undefined, selected: string): string[] {
  const [seen, setSeen] = useState<readonly string[]>([]);
  useEffect(() => {
    if (!logs) return;
    setSeen((previous) => {
      const known = new Set<string>([...SECURITY_EVENT_TYPES, ...previous]);
      const added = [...new Set(logs.logs.map((log) => log.eventType))].filter((type) => !known.has(type));
      return added.length === 0 ? previous : [...previous, ...added].sort();
    });
  }, [logs]);
  const extra =
    selected !== ALL_EVENTS && !SECURITY_EVENT_TYPES.some((t) => t === selected) && !seen.includes(selected);
  return [ALL_EVENTS, ...SECURITY_EVENT_TYPES, ...seen, ...(extra ? [selected] : [])];
}

/** The last 24 hours' audit log: event type and page size filters above the table. */
export function AuditLogCard({
  logs,
  filters,
  onFiltersChange,
  stale,
}: {
  /** undefined while the first page loads. */
  logs: AuditLogListResponse | undefined;
  filters: AuditLogFilters;
  onFiltersChange: (filters: AuditLogFilters) => void;
  /** The rows are the previous filter's, shown while the new one loads. */
  stale: boolean;
}) {
  const eventTypes = useEventTypeOptions(logs, filters.eventType);
  return (
    <Card>
      <CardHeader className="gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="grid gap-1.5">
          <CardTitle className="text-lg">Security Audit Log</CardTitle>
          <CardDescription>
            Events from the last 24 hours
            {logs &&
              !stale &&
              ` · showing ${logs.count.toLocaleString('en-US')} of ${logs.total.toLocaleString('en-US')}`}
          </CardDescription>
        </div>
        <div className="grid gap-3 sm:grid-cols-[14rem_8rem]">
          <SelectField
            label="Event Type"
            value={filters.eventType}
            options={eventTypes}
            onValueChange={(eventType) => onFiltersChange({ ...filters, eventType })}
            renderOption={(type) => (type === ALL_EVENTS ? 'All events' : type)}
          />
          <SelectField
            label="Page Size"
            value={String(filters.limit)}
            options={PAGE_SIZE_OPTIONS}
            onValueChange={(limit) => onFiltersChange({ ...filters, limit: Number(limit) })}
            renderOption={(size) => `${size} rows`}
          />
        </div>
      </CardHeader>
      <CardContent
        className={cn('px-0 pb-2 transition-opacity sm:px-2', stale && 'opacity-60')}
        aria-busy={stale}
      >
        <AuditLogTable logs={logs?.logs} />
      </CardContent>
    </Card>
  );
}
