import { memo, useState } from 'react';
import { Badge } from '@/components/ui/badge.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { HOP_REASONS, type HopReason, type ServerHopEvent } from '../../../../common/fleet.ts';
import { OptionSelect } from '../shared/option-select.tsx';
import { FEED_BUFFERS } from './fleet-feed.ts';
import { formatTime } from './scanner-status-tab.tsx';
import { VirtualRows } from './virtual-rows.tsx';

export const HOP_OUTCOMES = ['all', 'success', 'failed'] as const;
export type HopOutcome = (typeof HOP_OUTCOMES)[number];
const OUTCOME_LABELS: Record<HopOutcome, string> = { all: 'All Hops', success: 'Success', failed: 'Failed' };

export const HOP_REASON_LABELS: Record<HopReason, string> = {
  manual: 'Manual',
  auto_scan: 'Auto Scan',
  server_full: 'Server Full',
  error_recovery: 'Error Recovery',
  performance: 'Performance',
};
const REASON_FILTERS = ['all', ...HOP_REASONS] as const;
type ReasonFilter = (typeof REASON_FILTERS)[number];

export interface HopFilter {
  outcome: HopOutcome;
  reason: ReasonFilter;
  bot: string;
}

/** The timeline's filters; the bot filter is a case-insensitive contains on the bot id. */
export function filterHops(hops: readonly ServerHopEvent[], filter: HopFilter): ServerHopEvent[] {
  const bot = filter.bot.trim().toLowerCase();
  return hops.filter(
    (h) =>
      (filter.outcome === 'all' || h.success === (filter.outcome === 'success')) &&
      (filter.reason === 'all' || h.hopReason === filter.reason) &&
      (bot === '' || h.botId.toLowerCase().includes(bot)),
  );
}

/** Spec: job ids in the timeline are cut to 8 characters. */
const shortJob = (jobId: string | null) => (jobId ? jobId.slice(0, 8) : 'None');

/** Spec section 9: the timeline's scroll area. */
export const TIMELINE_HEIGHT = 400;
/**
 * A row's height before it is measured: three lines (badges and time; jobs and places; the error and
 * attempt text of a failure). Rows are measured, as a narrow screen wraps them onto more lines.
 */
const HOP_ROW_HEIGHT = 96;

/** Spec section 2 "Server Hop Timeline": newest first, in a 400 px scroll area. */
export function HopTimeline({ hops }: { hops: ServerHopEvent[] }) {
  const [filter, setFilter] = useState<HopFilter>({ outcome: 'all', reason: 'all', bot: '' });
  const shown = filterHops(hops, filter).slice(0, FEED_BUFFERS.hops.show);
  return (
    <Card>
      <CardHeader className="gap-2">
        <CardTitle className="text-base">Server Hop Timeline</CardTitle>
        <div className="flex flex-col gap-2 sm:flex-row">
          <div className="sm:w-36">
            <OptionSelect
              aria-label="Filter hops by outcome"
              value={filter.outcome}
              options={HOP_OUTCOMES}
              onValueChange={(outcome) => setFilter({ ...filter, outcome })}
              renderOption={(o) => OUTCOME_LABELS[o]}
            />
          </div>
          <div className="sm:w-44">
            <OptionSelect
              aria-label="Filter hops by reason"
              value={filter.reason}
              options={REASON_FILTERS}
              onValueChange={(reason) => setFilter({ ...filter, reason })}
              renderOption={(r) => (r === 'all' ? 'All Reasons' : HOP_REASON_LABELS[r])}
            />
          </div>
          <Input
            aria-label="Filter hops by bot ID"
            placeholder="Filter by bot ID..."
            value={filter.bot}
            onChange={(e) => setFilter({ ...filter, bot: e.target.value })}
            className="sm:max-w-xs"
          />
        </div>
      </CardHeader>
      <CardContent>
        {shown.length === 0 ? (
          <p className="py-8 text-center text-muted-foreground" style={{ height: TIMELINE_HEIGHT }}>
            No server hop events match the current filters.
          </p>
        ) : (
          <VirtualRows
            items={shown}
            rowHeight={HOP_ROW_HEIGHT}
            height={TIMELINE_HEIGHT}
            keyOf={hopKey}
            renderRow={renderHop}
            rowLabelOf={hopLabel}
            label="Server hops"
            testId="hop-timeline-scroll"
            measureRows
          />
        )}
      </CardContent>
    </Card>
  );
}

const hopKey = (hop: ServerHopEvent) => hop.id;
const hopLabel = (hop: ServerHopEvent) => `Hop by bot ${hop.botId}`;
const renderHop = (hop: ServerHopEvent) => <HopRow hop={hop} />;

/**
 * Memoized: hops never change once received, so a new batch renders only the new rows. Nothing is
 * cut: the parts wrap onto further lines (each badge and the time stay whole, long ids break), and
 * the row grows to fit.
 */
const HopRow = memo(function HopRow({ hop }: { hop: ServerHopEvent }) {
  const failure = !hop.success && hop.errorMessage;
  const attempt = hop.attemptNumber > 1;
  return (
    <div className="pb-2">
      <div
        data-hop-box
        className={`rounded-md border px-3 py-2 text-sm ${hop.success ? 'border-green-500/40' : 'border-red-500/40'}`}
      >
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <Badge variant="outline" className="max-w-full wrap-anywhere">
            Bot {hop.botId}
          </Badge>
          <Badge variant="secondary" className="whitespace-nowrap">
            {HOP_REASON_LABELS[hop.hopReason]}
          </Badge>
          <span className={hop.success ? 'text-green-600' : 'text-red-400'}>
            {hop.success ? 'Success' : 'Failed'}
          </span>
          <span className="whitespace-nowrap tabular-nums">{hop.latencyMs}ms</span>
          <span className="ml-auto whitespace-nowrap text-xs text-muted-foreground">
            {formatTime(hop.timestamp)}
          </span>
        </div>
        <p className="mt-1 flex flex-wrap gap-x-2 font-mono text-xs">
          <span className="whitespace-nowrap">
            {shortJob(hop.fromJobId)} → {shortJob(hop.toJobId)}
          </span>
          <span className="min-w-0 text-muted-foreground wrap-anywhere">
            Place {hop.fromPlaceId ?? 'None'} → {hop.toPlaceId}
          </span>
        </p>
        {(failure || attempt) && (
          <p className="text-xs wrap-anywhere">
            {failure && <span className="text-red-400">{hop.errorMessage}</span>}
            {failure && attempt && ' · '}
            {attempt && (
              <span className="text-muted-foreground">
                {/* Spec: 'Attempt N of M servers'. */}
                Attempt {hop.attemptNumber} of {hop.totalServersAttempted} servers
              </span>
            )}
          </p>
        )}
      </div>
    </div>
  );
});
