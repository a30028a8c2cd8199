import { useQuery } from '@tanstack/react-query';
import { Crown, KeyRound, PauseCircle, PlayCircle, RefreshCw, Search } from 'lucide-react';
import { useId, useState } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { scriptKeysQuery } from '@/lib/admin-queries.ts';
import { cn } from '@/lib/cn.ts';
import { SCRIPT_KEY_TYPE_LABELS, SCRIPT_KEY_TYPES, type ScriptKey } from '../../../common/script-keys.ts';
import { AdminPageHeader } from './admin-page-header.tsx';
import { CreateScriptKeyDialog } from './create-script-key-dialog.tsx';
import {
  filterScriptKeys,
  SCRIPT_KEY_STATUS_FILTERS,
  type ScriptKeyStatusFilter,
  type ScriptKeyTypeFilter,
  scriptKeyStats,
} from './script-key-filter.ts';
import { ScriptKeyTable } from './script-key-table.tsx';
import { StatCard } from './stat-card.tsx';

const STATUS_LABELS: Record<ScriptKeyStatusFilter, string> = {
  all: 'All statuses',
  active: 'Active',
  inactive: 'Inactive',
};

const TYPE_FILTERS: { value: ScriptKeyTypeFilter; label: string }[] = [
  { value: 'all', label: 'All types' },
  ...SCRIPT_KEY_TYPES.map((type) => ({ value: type, label: SCRIPT_KEY_TYPE_LABELS[type] })),
];

/** /admin/script-keys: the keys that unlock premium scripts; create, find, switch on and off, delete. */
export default function ScriptKeysPage() {
  const searchId = useId();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<ScriptKeyStatusFilter>('all');
  const [type, setType] = useState<ScriptKeyTypeFilter>('all');
  const keys = useQuery(scriptKeysQuery());
  const all = keys.data?.scriptKeys;
  const shown = all ? filterScriptKeys(all, { search, status, type }) : undefined;

  return (
    <div className="flex min-w-0 flex-col gap-6">
      <AdminPageHeader
        title="Script Keys Management"
        description="Keys that unlock premium scripts in the loader, each bound to the devices that use it."
      >
        <CreateScriptKeyDialog />
      </AdminPageHeader>

      {keys.isError && !keys.data ? (
        <Alert variant="destructive">
          <AlertTitle>Script keys unavailable</AlertTitle>
          <AlertDescription>Failed to load script keys. Please try refreshing the page.</AlertDescription>
        </Alert>
      ) : (
        <>
          <ScriptKeyStatCards keys={all} />
          <Card>
            <CardHeader className="gap-4">
              <div className="flex items-center justify-between gap-2">
                <CardTitle className="flex items-center gap-2 text-lg">
                  Keys
                  {shown && (
                    <Badge
                      variant="secondary"
                      aria-label={`${shown.length} ${shown.length === 1 ? 'key' : 'keys'} shown`}
                    >
                      {shown.length}
                    </Badge>
                  )}
                </CardTitle>
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => void keys.refetch()}
                  disabled={keys.isFetching}
                  aria-label="Refresh script keys"
                >
                  <RefreshCw className={cn(keys.isFetching && 'animate-spin')} />
                </Button>
              </div>
              <div className="flex flex-col gap-3 md:flex-row">
                <div className="relative flex-1">
                  <Label htmlFor={searchId} className="sr-only">
                    Search script keys
                  </Label>
                  <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted-foreground" />
                  <Input
                    id={searchId}
                    type="search"
                    value={search}
                    placeholder="Search by key, type or notes..."
                    className="pl-9"
                    onChange={(e) => setSearch(e.target.value)}
                  />
                </div>
                <div className="grid grid-cols-2 gap-3 md:w-80">
                  <Select value={status} onValueChange={(v) => setStatus(v as ScriptKeyStatusFilter)}>
                    <SelectTrigger aria-label="Filter by status">
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {SCRIPT_KEY_STATUS_FILTERS.map((value) => (
                        <SelectItem key={value} value={value}>
                          {STATUS_LABELS[value]}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                  <Select value={type} onValueChange={(v) => setType(v as ScriptKeyTypeFilter)}>
                    <SelectTrigger aria-label="Filter by type">
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {TYPE_FILTERS.map(({ value, label }) => (
                        <SelectItem key={value} value={value}>
                          {label}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                </div>
              </div>
            </CardHeader>
            <CardContent className="px-0 pb-2 sm:px-2">
              <ScriptKeyTable keys={shown} />
            </CardContent>
          </Card>
        </>
      )}
    </div>
  );
}

/** Total, active, inactive and premium counts over every key (not just the filtered ones). */
function ScriptKeyStatCards({ keys }: { keys: ScriptKey[] | undefined }) {
  if (!keys) {
    return (
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-28" />
        ))}
      </div>
    );
  }
  const stats = scriptKeyStats(keys);
  return (
    <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
      <StatCard
        title="Total Keys"
        value={stats.total}
        icon={KeyRound}
        hint={stats.expired === 0 ? 'None expired' : `${stats.expired} expired`}
      />
      <StatCard
        title="Active Keys"
        value={stats.active}
        icon={PlayCircle}
        hint="Switched on and not expired"
        tone="text-emerald-400"
      />
      <StatCard
        title="Inactive Keys"
        value={stats.inactive}
        icon={PauseCircle}
        hint="Switched off, not expired"
      />
      <StatCard
        title="Premium Keys"
        value={stats.premium}
        icon={Crown}
        hint="Premium, VIP and Premium 24h"
        tone="text-primary"
      />
    </div>
  );
}
