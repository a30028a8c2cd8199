import { useQuery } from '@tanstack/react-query';
import { Crown, KeyRound, PauseCircle, PlayCircle } from 'lucide-react';
import { useState } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Card, CardContent, CardHeader } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { SCRIPT_KEY_TYPE_LABELS, SCRIPT_KEY_TYPES, type ScriptKey } from '../../../../common/script-keys.ts';
import { AdminPageHeader } from '../shared/admin-page-header.tsx';
import { CountBadge, ListCardTitle, SearchBox } from '../shared/list-controls.tsx';
import { OptionSelect } from '../shared/option-select.tsx';
import { StatCard } from '../shared/stat-card.tsx';
import { CreateScriptKeyDialog } from './create-script-key-dialog.tsx';
import { KeySharingPanel } from './key-sharing-panel.tsx';
import {
  filterScriptKeys,
  SCRIPT_KEY_STATUS_FILTERS,
  type ScriptKeyStatusFilter,
  type ScriptKeyTypeFilter,
  scriptKeyStats,
} from './script-key-filter.ts';
import { scriptKeysQuery } from './script-key-queries.ts';
import { ScriptKeyTable } from './script-key-table.tsx';

const STATUS_LABELS: Record<ScriptKeyStatusFilter, string> = {
  all: 'All statuses',
  active: 'Active',
  inactive: 'Inactive',
};

const TYPE_FILTERS: readonly ScriptKeyTypeFilter[] = ['all', ...SCRIPT_KEY_TYPES];

/** /admin/script-keys: the keys that unlock premium scripts; create, find, switch on and off, delete. */
export default function ScriptKeysPage() {
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
              <ListCardTitle query={keys} refreshLabel="Refresh script keys">
                Keys
                {shown && (
                  <CountBadge count={shown.length} noun={shown.length === 1 ? 'key shown' : 'keys shown'} />
                )}
              </ListCardTitle>
              <div className="flex flex-col gap-3 md:flex-row">
                <SearchBox
                  label="Search script keys"
                  placeholder="Search by key, type, notes or Discord user id..."
                  value={search}
                  onValueChange={setSearch}
                />
                <div className="grid grid-cols-2 gap-3 md:w-80">
                  <OptionSelect
                    aria-label="Filter by status"
                    value={status}
                    options={SCRIPT_KEY_STATUS_FILTERS}
                    onValueChange={setStatus}
                    renderOption={(value) => STATUS_LABELS[value]}
                  />
                  <OptionSelect
                    aria-label="Filter by type"
                    value={type}
                    options={TYPE_FILTERS}
                    onValueChange={setType}
                    renderOption={(value) => (value === 'all' ? 'All types' : SCRIPT_KEY_TYPE_LABELS[value])}
                  />
                </div>
              </div>
            </CardHeader>
            <CardContent className="px-0 pb-2 sm:px-2">
              <ScriptKeyTable keys={shown} />
            </CardContent>
          </Card>
          <KeySharingPanel />
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
