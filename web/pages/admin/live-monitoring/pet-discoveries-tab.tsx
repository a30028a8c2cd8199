import { memo } from 'react';
import { Badge } from '@/components/ui/badge.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { cn } from '@/lib/cn.ts';
import type { PetDiscovery } from '../../../../common/fleet.ts';
import { OptionSelect } from '../shared/option-select.tsx';
import { FEED_BUFFERS, VALUE_THRESHOLDS } from './fleet-feed.ts';
import { cardJobId, Field, formatTime } from './scanner-status-tab.tsx';

export const VALUE_FILTERS = ['all', '500k', '1m', '5m'] as const;
export type ValueFilter = (typeof VALUE_FILTERS)[number];

const VALUE_FILTER_LABELS: Record<ValueFilter, string> = {
  all: 'All Values',
  '500k': '$500K+',
  '1m': '$1M+',
  '5m': '$5M+',
};
const VALUE_FILTER_MIN: Record<ValueFilter, number> = {
  all: 0,
  '500k': VALUE_THRESHOLDS.high,
  '1m': VALUE_THRESHOLDS.million,
  '5m': VALUE_THRESHOLDS.premium,
};

export interface DiscoveryFilter {
  search: string;
  value: ValueFilter;
}

/** Spec section 5: case-insensitive contains on name or type; value filters compare against 500K/1M/5M. */
export function filterDiscoveries(
  discoveries: readonly PetDiscovery[],
  filter: DiscoveryFilter,
): PetDiscovery[] {
  const needle = filter.search.trim().toLowerCase();
  const min = VALUE_FILTER_MIN[filter.value];
  return discoveries.filter(
    (d) =>
      d.numericValue >= min &&
      (needle === '' || d.name.toLowerCase().includes(needle) || d.type.toLowerCase().includes(needle)),
  );
}

/** Spec: the value badge turns blue above 1M and purple above 5M. */
export function valueBadgeClass(numericValue: number): string {
  if (numericValue > VALUE_THRESHOLDS.premium) return 'bg-purple-600 text-white';
  if (numericValue > VALUE_THRESHOLDS.million) return 'bg-blue-600 text-white';
  return 'bg-secondary text-secondary-foreground';
}

/** The Pet Discoveries tab; the filter lives in the page, which exports what it shows. */
export function PetDiscoveriesTab({
  discoveries,
  filter,
  onFilterChange,
}: {
  /** Already filtered, newest first. */
  discoveries: PetDiscovery[];
  filter: DiscoveryFilter;
  onFilterChange: (filter: DiscoveryFilter) => void;
}) {
  const filtered = filter.search.trim() !== '' || filter.value !== 'all';
  const shown = discoveries.slice(0, FEED_BUFFERS.discoveries.show);
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          aria-label="Search pets by name or type"
          placeholder="Search by name or type..."
          value={filter.search}
          onChange={(e) => onFilterChange({ ...filter, search: e.target.value })}
          className="sm:max-w-xs"
        />
        <div className="sm:w-44">
          <OptionSelect
            aria-label="Filter by value"
            value={filter.value}
            options={VALUE_FILTERS}
            onValueChange={(value) => onFilterChange({ ...filter, value })}
            renderOption={(option) => VALUE_FILTER_LABELS[option]}
          />
        </div>
      </div>
      {shown.length === 0 ? (
        <div className="py-8 text-center text-muted-foreground">
          <p>No pet discoveries found</p>
          {filtered && <p className="text-sm">Try adjusting your search filters</p>}
        </div>
      ) : (
        // grid-cols-1 (minmax(0, 1fr)) and min-w-0 cards: a long name or job id is cut inside its card
        // instead of widening the column past a phone's screen.
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {shown.map((d) => (
            <DiscoveryCard key={d.id} discovery={d} />
          ))}
        </div>
      )}
    </div>
  );
}

/** Memoized: discoveries never change once received, so a new batch renders only the new cards. */
const DiscoveryCard = memo(function DiscoveryCard({ discovery: d }: { discovery: PetDiscovery }) {
  return (
    <Card role="group" aria-label={d.name} className="min-w-0">
      <CardHeader className="flex-row items-start justify-between gap-2 pb-2">
        <div className="min-w-0">
          <CardTitle className="truncate text-base">{d.name}</CardTitle>
          <p className="text-xs text-muted-foreground">{d.type || 'Unknown type'}</p>
        </div>
        <Badge className={cn('border-transparent', valueBadgeClass(d.numericValue))}>{d.value}</Badge>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
          <Field label="Count" value={String(d.count)} />
          <Field label="Bot" value={d.botId} />
          <Field label="Place" value={d.placeid} mono />
          <Field label="Job" value={cardJobId(d.jobid)} mono />
          <Field label="Discovered" value={formatTime(d.timestamp)} />
        </dl>
      </CardContent>
    </Card>
  );
});
