import { useEffect, useId, useState } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Label } from '@/components/ui/label.tsx';
import {
  Select,
  SelectContent,
  SelectGroup,
  SelectItem,
  SelectLabel,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select.tsx';
import { cn } from '@/lib/cn.ts';
import {
  AUDIT_EVENT_AREAS,
  AUDIT_EVENT_TYPES,
  AUDIT_EVENTS,
  auditEventLabel,
  isAuditEventType,
} from '../../../../common/audit-events.ts';
import { AUDIT_PAGE_SIZES, type AuditLogListResponse } from '../../../../common/security.ts';
import { SelectField } from '../shared/field-controls.tsx';
import { AuditLogTable } from './security-audit-table.tsx';

export const ALL_EVENTS = 'all';

export interface AuditLogFilters {
  /** An event type, or ALL_EVENTS. */
  eventType: string;
  limit: number;
}

const PAGE_SIZE_OPTIONS = AUDIT_PAGE_SIZES.map(String);

/** The known events by area, in the order the filter lists them. */
const EVENTS_BY_AREA = AUDIT_EVENT_AREAS.map((area) => ({
  area,
  types: AUDIT_EVENT_TYPES.filter((type) => AUDIT_EVENTS[type].area === area),
}));

/**
 * Event ids the log has shown since the screen opened that this build names no event for (a newer
 * server's, during an upgrade): remembered across loads, so picking one does not make it disappear.
 */
function useUnknownEventTypes(logs: AuditLogListResponse | undefined, selected: string): string[] {
  const [seen, setSeen] = useState<readonly string[]>([]);
  useEffect(() => {
    if (!logs) return;
    setSeen((previous) => {
      const added = [...new Set(logs.logs.map((log) => log.eventType))].filter(
        (type) => !isAuditEventType(type) && !previous.includes(type),
      );
      return added.length === 0 ? previous : [...previous, ...added].sort();
    });
  }, [logs]);
  const extra = selected !== ALL_EVENTS && !isAuditEventType(selected) && !seen.includes(selected);
  return [...seen, ...(extra ? [selected] : [])];
}

/** An event in the filter: its name in plain words, its id (what the API filters by) in the tooltip. */
function EventOption({ type }: { type: string }) {
  return (
    <SelectItem value={type} title={type}>
      {auditEventLabel(type)}
    </SelectItem>
  );
}

/** The event filter: all events, then every event the server writes, under its area. */
function EventTypeFilter({
  value,
  unknownTypes,
  onValueChange,
}: {
  value: string;
  unknownTypes: string[];
  onValueChange: (eventType: string) => void;
}) {
  const id = useId();
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>Event Type</Label>
      <Select value={value} onValueChange={onValueChange}>
        <SelectTrigger id={id} title={value === ALL_EVENTS ? undefined : value}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={ALL_EVENTS}>All events</SelectItem>
          {EVENTS_BY_AREA.map(({ area, types }) => (
            <SelectGroup key={area}>
              <SelectLabel>{area}</SelectLabel>
              {types.map((type) => (
                <EventOption key={type} type={type} />
              ))}
            </SelectGroup>
          ))}
          {unknownTypes.length > 0 && (
            <SelectGroup>
              <SelectLabel>Other events</SelectLabel>
              {unknownTypes.map((type) => (
                <EventOption key={type} type={type} />
              ))}
            </SelectGroup>
          )}
        </SelectContent>
      </Select>
    </div>
  );
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
  const unknownTypes = useUnknownEventTypes(logs, filters.eventType);
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
        <div className="grid gap-3 sm:grid-cols-[16rem_8rem]">
          <EventTypeFilter
            value={filters.eventType}
            unknownTypes={unknownTypes}
            onValueChange={(eventType) => onFiltersChange({ ...filters, eventType })}
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
