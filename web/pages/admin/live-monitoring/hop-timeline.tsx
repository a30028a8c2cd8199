import { memo, useState } from 'react';
import { Badge } from '@/components/ui/badge.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { HOP_REASONS, type HopReason, type ServerHopEvent } from '../../../../common/fleet.ts';
import { OptionSelect } from '../shared/option-select.tsx';
import { FEED_BUFFERS } from './fleet-feed.ts';
import { formatTime } from './scanner-status-tab.tsx';

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
        <div className="h-[400px] overflow-y-auto" data-testid="hop-timeline-scroll">
          {shown.length === 0 ? (
            <p className="py-8 text-center text-muted-foreground">
              No server hop events match the current filters.
            </p>
          ) : (
            <ul aria-label="Server hops" className="flex flex-col gap-2">
              {shown.map((hop) => (
                <HopRow key={hop.id} hop={hop} />
              ))}
            </ul>
          )}
        </div>
      </CardContent>
    </Card>
  );
}

/** Memoized: hops never change once received, so a new batch renders only the new rows. */
const HopRow = memo(function HopRow({ hop }: { hop: ServerHopEvent }) {
  return (
    <li
      aria-label={`Hop by bot ${hop.botId}`}
      className={`rounded-md border p-3 text-sm ${hop.success ? 'border-green-500/40' : 'border-red-500/40'}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant="outline">Bot {hop.botId}</Badge>
        <Badge variant="secondary">{HOP_REASON_LABELS[hop.hopReason]}</Badge>
        <span className={hop.success ? 'text-green-600' : 'text-red-600'}>
          {hop.success ? 'Success' : 'Failed'}
        </span>
        <span className="tabular-nums">{hop.latencyMs}ms</span>
        <span className="ml-auto text-xs text-muted-foreground">{formatTime(hop.timestamp)}</span>
      </div>
      <p className="mt-1 font-mono text-xs">
        {shortJob(hop.fromJobId)} → {shortJob(hop.toJobId)}
      </p>
      <p className="font-mono text-xs text-muted-foreground">
        Place {hop.fromPlaceId ?? 'None'} → {hop.toPlaceId}
      </p>
      {!hop.success && hop.errorMessage && <p className="text-xs text-red-600">{hop.errorMessage}</p>}
      {hop.attemptNumber > 1 && (
        <p className="text-xs text-muted-foreground">
          {/* Spec: 'Attempt N of M servers'. */}
          Attempt {hop.attemptNumber} of {hop.totalServersAttempted} servers
        </p>
      )}
    </li>
  );
});
