import { ChevronDown, ChevronUp } from 'lucide-react';
import { memo, useState } from 'react';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import { OptionSelect } from '../shared/option-select.tsx';
import { useDebouncedValue } from '../shared/use-debounced-value.ts';
import type { LiveEvent, LiveEventSeverity, LiveEventType } from './fleet-feed.ts';
import { formatTime } from './scanner-status-tab.tsx';
import { VirtualRows } from './virtual-rows.tsx';

/** Spec section 9: the feed's virtualization figures and search debounce. */
export const FEED_ROW_HEIGHT = 120;
export const FEED_OVERSCAN = 5;
export const FEED_HEIGHT = 500;
export const FEED_SEARCH_DEBOUNCE_MS = 300;

const SEVERITY_FILTERS = ['all', 'success', 'info', 'warning', 'error'] as const;
type SeverityFilter = (typeof SEVERITY_FILTERS)[number];
const SEVERITY_LABELS: Record<SeverityFilter, string> = {
  all: 'All Levels',
  success: 'Success',
  info: 'Info',
  warning: 'Warning',
  error: 'Error',
};
const TYPE_FILTERS = ['all', 'server_hop', 'pet_discovery', 'scanner_activity', 'network_alert'] as const;
type TypeFilter = (typeof TYPE_FILTERS)[number];
const TYPE_LABELS: Record<TypeFilter, string> = {
  all: 'All Types',
  server_hop: 'Server Hops',
  pet_discovery: 'Pet Discoveries',
  scanner_activity: 'Scanner Activity',
  network_alert: 'Network Alerts',
};
const SEVERITY_BADGE: Record<LiveEventSeverity, string> = {
  success: 'bg-green-700 text-white',
  info: 'bg-blue-600 text-white',
  warning: 'bg-yellow-500 text-black',
  error: 'bg-red-600 text-white',
};

export interface EventFilter {
  search: string;
  severity: SeverityFilter;
  type: TypeFilter;
}

/** Search is a case-insensitive contains on the message, bot id or scanner id. */
export function filterEvents(events: readonly LiveEvent[], filter: EventFilter): LiveEvent[] {
  const needle = filter.search.trim().toLowerCase();
  return events.filter(
    (e) =>
      (filter.severity === 'all' || e.severity === filter.severity) &&
      (filter.type === 'all' || e.type === (filter.type as LiveEventType)) &&
      (needle === '' ||
        e.message.toLowerCase().includes(needle) ||
        e.botId.toLowerCase().includes(needle) ||
        e.scannerId.toLowerCase().includes(needle)),
  );
}

/** Spec section 2 "Live Event Feed": newest first, virtualized, with its filters and footer. */
export function LiveEventFeed({
  events,
  totals,
}: {
  /** Newest first. */
  events: LiveEvent[];
  /** Everything received since the page opened, including events the buffer no longer holds. */
  totals: { events: number; hops: number };
}) {
  const [search, setSearch] = useState('');
  const [severity, setSeverity] = useState<SeverityFilter>('all');
  const [type, setType] = useState<TypeFilter>('all');
  const [autoScroll, setAutoScroll] = useState(true);
  const [collapsed, setCollapsed] = useState(false);
  const debouncedSearch = useDebouncedValue(search, FEED_SEARCH_DEBOUNCE_MS);
  const shown = filterEvents(events, { search: debouncedSearch, severity, type });

  return (
    <Card>
      <CardHeader className="gap-2">
        <div className="flex items-center justify-between gap-2">
          <CardTitle className="text-base">Live Event Feed</CardTitle>
          <div className="flex items-center gap-3">
            <div className="flex items-center gap-2">
              <Switch id="feed-auto-scroll" checked={autoScroll} onCheckedChange={setAutoScroll} />
              <Label htmlFor="feed-auto-scroll">Auto-scroll</Label>
            </div>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => setCollapsed(!collapsed)}
              aria-label={collapsed ? 'Expand feed' : 'Collapse feed'}
              aria-expanded={!collapsed}
            >
              {collapsed ? <ChevronDown className="h-4 w-4" /> : <ChevronUp className="h-4 w-4" />}
            </Button>
          </div>
        </div>
        {!collapsed && (
          <div className="flex flex-col gap-2 sm:flex-row">
            <Input
              aria-label="Search events"
              placeholder="Search events..."
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              className="sm:max-w-xs"
            />
            <div className="sm:w-40">
              <OptionSelect
                aria-label="Filter events by severity"
                value={severity}
                options={SEVERITY_FILTERS}
                onValueChange={setSeverity}
                renderOption={(s) => SEVERITY_LABELS[s]}
              />
            </div>
            <div className="sm:w-44">
              <OptionSelect
                aria-label="Filter events by type"
                value={type}
                options={TYPE_FILTERS}
                onValueChange={setType}
                renderOption={(t) => TYPE_LABELS[t]}
              />
            </div>
          </div>
        )}
      </CardHeader>
      {!collapsed && (
        <CardContent className="flex flex-col gap-2">
          {shown.length === 0 ? (
            <p className="py-8 text-center text-muted-foreground">No events match the current filters.</p>
          ) : (
            <VirtualRows
              items={shown}
              rowHeight={FEED_ROW_HEIGHT}
              height={FEED_HEIGHT}
              overscan={FEED_OVERSCAN}
              keyOf={eventKey}
              renderRow={renderEvent}
              label="Live Event Feed"
              testId="live-event-feed"
              pinNewest={autoScroll}
              measureRows
            />
          )}
          <div className="flex flex-wrap justify-between gap-2 text-xs text-muted-foreground">
            <span>
              {/* Spec: 'Showing X of Y events'. */}
              Showing {shown.length} of {events.length} events
            </span>
            {/* Not the Total Hops card (every hop the server keeps): what this page was sent. */}
            <span>
              Received by this page:{' '}
              <span>
                {/* Spec: 'Total: N events | Hops: M'. */}
                Total: {totals.events} events | Hops: {totals.hops}
              </span>
            </span>
          </div>
        </CardContent>
      )}
    </Card>
  );
}

const eventKey = (event: LiveEvent) => event.id;
const renderEvent = (event: LiveEvent) => <EventRow event={event} />;

/** Memoized: events never change once received, so a new batch renders only the new rows. */
const EventRow = memo(function EventRow({ event }: { event: LiveEvent }) {
  return (
    // At least the spec's 120 px; a longer message (a phone's narrow row) makes the row taller.
    <div className="p-1" style={{ minHeight: FEED_ROW_HEIGHT }}>
      <div className="rounded-md border p-3 text-sm" style={{ minHeight: FEED_ROW_HEIGHT - 8 }}>
        <div className="flex flex-wrap items-center gap-2">
          <Badge className={`border-transparent ${SEVERITY_BADGE[event.severity]}`}>
            {SEVERITY_LABELS[event.severity]}
          </Badge>
          <Badge variant="outline">{TYPE_LABELS[event.type]}</Badge>
          <span className="ml-auto text-xs text-muted-foreground">{formatTime(event.timestamp)}</span>
        </div>
        <p className="mt-2 wrap-anywhere">{event.message}</p>
        <p className="text-xs text-muted-foreground wrap-anywhere">
          Bot {event.botId} · {event.scannerId}
        </p>
      </div>
    </div>
  );
});
