import { useQuery } from '@tanstack/react-query';
import { Ban, Fingerprint, HardDrive, Link2 } from 'lucide-react';
import { useDeferredValue, useId, useMemo, useState } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { formatDate } from '../../../../common/format.ts';
import { BINDING_STATUSES } from '../../../../common/hardware-bindings.ts';
import { LICENSE_KEY_TYPES } from '../../../../common/licensing.ts';
import { AdminPageHeader } from '../shared/admin-page-header.tsx';
import { SelectField } from '../shared/field-controls.tsx';
import { CountBadge, SearchIcon } from '../shared/list-controls.tsx';
import { StatCard } from '../shared/stat-card.tsx';
import {
  type BindingStatusFilter,
  type BindingTypeFilter,
  bindingStats,
  filterBindings,
} from './hardware-binding-filters.ts';
import { hardwareBindingsQuery } from './hardware-binding-queries.ts';
import { type BindingTableState, HardwareBindingTable } from './hardware-binding-table.tsx';
import { ResetHistory } from './reset-history.tsx';

const STATUS_FILTERS: readonly BindingStatusFilter[] = ['all', ...BINDING_STATUSES];
const TYPE_FILTERS: readonly BindingTypeFilter[] = ['all', ...LICENSE_KEY_TYPES];

/** /admin/hardware-bindings (routed, not in the sidebar): every device bound to a key, with revoke. */
export default function HardwareBindingsPage() {
  const searchId = useId();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<BindingStatusFilter>('all');
  const [keyType, setKeyType] = useState<BindingTypeFilter>('all');
  const { data, isError } = useQuery(hardwareBindingsQuery());
  // Typing stays responsive with many bindings: the table catches up with the box.
  const deferredSearch = useDeferredValue(search);

  const stats = useMemo(() => (data ? bindingStats(data.bindings) : undefined), [data]);
  const shown = useMemo(
    () => (data ? filterBindings(data.bindings, { search: deferredSearch, status, keyType }) : undefined),
    [data, deferredSearch, status, keyType],
  );
  const tableState: BindingTableState =
    !data || !shown
      ? { kind: 'loading' }
      : data.bindings.length === 0
        ? { kind: 'none' }
        : { kind: 'rows', bindings: shown };

  return (
    <div className="flex min-w-0 flex-col gap-6">
      <AdminPageHeader
        title="Hardware Bindings"
        description="Devices bound to license keys; revoke one to cut that device off."
      >
        <p className="text-sm text-muted-foreground">
          Last updated: {data ? formatDate(data.timestamp) : isError ? 'Unknown' : 'Loading...'}
        </p>
      </AdminPageHeader>

      {isError && !data ? (
        <Alert variant="destructive">
          <AlertTitle>Hardware bindings unavailable</AlertTitle>
          <AlertDescription>
            Failed to load hardware bindings. Please try refreshing the page.
          </AlertDescription>
        </Alert>
      ) : (
        <>
          <section aria-label="Binding figures" className="grid gap-3 sm:grid-cols-2 sm:gap-4 xl:grid-cols-4">
            {stats ? (
              <>
                <StatCard
                  title="Total Bindings"
                  value={stats.total}
                  icon={HardDrive}
                  hint="Devices ever bound"
                />
                <StatCard
                  title="Active Bindings"
                  value={stats.active}
                  icon={Link2}
                  hint="Devices that may use their key"
                  tone="text-emerald-400"
                />
                <StatCard
                  title="Revoked Bindings"
                  value={stats.revoked}
                  icon={Ban}
                  hint="Devices cut off by an admin"
                  tone="text-red-400"
                />
                <StatCard
                  title="Unique Devices"
                  value={stats.uniqueDevices}
                  icon={Fingerprint}
                  hint="Distinct hardware IDs"
                  tone="text-sky-400"
                />
              </>
            ) : (
              Array.from({ length: 4 }, (_, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders
                <Skeleton key={i} className="h-28" />
              ))
            )}
          </section>

          <Card>
            <CardHeader className="gap-4">
              <div className="flex items-center gap-2">
                <CardTitle className="text-lg">Bindings</CardTitle>
                {shown && (
                  <CountBadge
                    count={shown.length}
                    noun={shown.length === 1 ? 'binding shown' : 'bindings shown'}
                  />
                )}
              </div>
              <div className="grid gap-3 sm:grid-cols-[1fr_11rem_11rem] sm:items-end">
                <div className="grid gap-1.5">
                  <Label htmlFor={searchId}>Search</Label>
                  <div className="relative">
                    <SearchIcon />
                    <Input
                      id={searchId}
                      type="search"
                      value={search}
                      placeholder="Device ID, name, OS or license key..."
                      className="pl-9"
                      onChange={(e) => setSearch(e.target.value)}
                    />
                  </div>
                </div>
                <SelectField
                  label="Status"
                  value={status}
                  options={STATUS_FILTERS}
                  onValueChange={setStatus}
                  renderOption={(option) => (option === 'all' ? 'All statuses' : option)}
                />
                <SelectField
                  label="License Type"
                  value={keyType}
                  options={TYPE_FILTERS}
                  onValueChange={setKeyType}
                  renderOption={(option) => (option === 'all' ? 'All types' : option)}
                />
              </div>
            </CardHeader>
            <CardContent className="px-0 pb-2 sm:px-2">
              <HardwareBindingTable state={tableState} />
            </CardContent>
          </Card>

          {data && <ResetHistory resets={data.resets ?? []} />}
        </>
      )}
    </div>
  );
}
