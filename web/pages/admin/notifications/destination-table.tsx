import { LoaderCircle, Send, Trash2 } from 'lucide-react';
import { ConfirmActionButton } from '@/components/confirm-action-button.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import type { Destination } from '../../../../common/notifications.ts';
import { CutText, LoadingRow, MessageRow } from '../shared/admin-table-cells.tsx';
import { ActionsCell, AdminCell, AdminRow, AdminTable } from '../shared/admin-table-layout.tsx';
import { DestinationDialog, KIND_LABELS } from './destination-dialog.tsx';
import { LastError } from './last-error.tsx';
import { formatDelay, formatMs, formatValueRange } from './notifications-format.ts';
import { useDeleteDestination, useSendTest, useSetDestinationEnabled } from './notifications-mutations.ts';

const COLUMNS = ['Destination', 'Finds', 'Enabled', 'Deliveries', 'Find to Post', 'Actions'];

/** The destinations list. `destinations` undefined means still loading. */
export function DestinationTable({ destinations }: { destinations: Destination[] | undefined }) {
  return (
    <AdminTable columns={COLUMNS} busy={destinations === undefined}>
      {destinations === undefined ? (
        <LoadingRow columns={COLUMNS.length}>Loading destinations...</LoadingRow>
      ) : destinations.length === 0 ? (
        <MessageRow columns={COLUMNS.length}>
          No destinations yet. Add one to post finds to Discord or a webhook.
        </MessageRow>
      ) : (
        destinations.map((destination) => <DestinationRow key={destination.id} destination={destination} />)
      )}
    </AdminTable>
  );
}

function DestinationRow({ destination }: { destination: Destination }) {
  const { stats } = destination;
  return (
    <AdminRow data-destination-id={destination.id}>
      <AdminCell label="Destination" wide className="md:max-w-64">
        <p className="flex flex-wrap items-center gap-2 font-medium">
          {destination.name}
          <Badge variant="outline" className="whitespace-nowrap">
            {KIND_LABELS[destination.kind]}
          </Badge>
          {destination.alerts && <Badge className="whitespace-nowrap">Operator alerts</Badge>}
        </p>
        <CutText text={destination.url} className="font-mono text-xs text-muted-foreground" />
        {destination.disabledReason && (
          <p
            role="status"
            className="mt-1 rounded-md bg-destructive/15 px-2 py-1 text-sm font-medium text-red-300"
          >
            Disabled: {destination.disabledReason}
          </p>
        )}
      </AdminCell>
      <AdminCell label="Finds" className="text-sm">
        {destination.alerts ? (
          <p className="text-muted-foreground">None: operator alerts only</p>
        ) : (
          <FindSettings destination={destination} />
        )}
      </AdminCell>
      <AdminCell label="Enabled">
        <EnabledSwitch destination={destination} />
      </AdminCell>
      <AdminCell label="Deliveries" className="text-sm tabular-nums md:max-w-56">
        <dl className="grid grid-cols-[auto_auto] justify-start gap-x-2">
          <dt className="text-muted-foreground">Sent</dt>
          <dd>{stats.sent.toLocaleString('en-US')}</dd>
          <dt className="text-muted-foreground">Pending</dt>
          <dd>{stats.pending.toLocaleString('en-US')}</dd>
          <dt className="text-muted-foreground">Failed</dt>
          <dd className={stats.failed > 0 ? 'font-semibold text-red-300' : undefined}>
            {stats.failed.toLocaleString('en-US')}
          </dd>
          <dt className="text-muted-foreground" title="Older than the maximum age when they could be posted">
            Dropped (too old)
          </dt>
          <dd className={stats.dropped > 0 ? 'font-semibold text-amber-300' : undefined}>
            {stats.dropped.toLocaleString('en-US')}
          </dd>
        </dl>
        <LastError text={stats.lastError} />
      </AdminCell>
      <AdminCell label="Find to Post" className="text-sm tabular-nums">
        {stats.p50Ms === null || stats.p99Ms === null ? (
          <span className="text-muted-foreground">No posts yet</span>
        ) : (
          <>
            <p className="whitespace-nowrap">p50 {formatMs(stats.p50Ms)}</p>
            <p className="whitespace-nowrap">p99 {formatMs(stats.p99Ms)}</p>
          </>
        )}
      </AdminCell>
      <ActionsCell>
        <SendTestButton destination={destination} />
        <DestinationDialog destination={destination} />
        <DeleteDestinationButton destination={destination} />
      </ActionsCell>
    </AdminRow>
  );
}

/** What finds a find destination takes: range, pets, delay, maximum age. */
function FindSettings({ destination }: { destination: Destination }) {
  return (
    <>
      <p className="whitespace-nowrap tabular-nums">{formatValueRange(destination)}</p>
      <p className="text-xs text-muted-foreground">
        {destination.petNames.length === 0 ? 'Every pet' : destination.petNames.join(', ')}
      </p>
      <p className="text-xs text-muted-foreground">Delay: {formatDelay(destination.delaySeconds)}</p>
      <p className="text-xs text-muted-foreground">
        Max age: {formatDelay(destination.maxAgeSecondsInEffect)}
        {destination.maxAgeSeconds === null ? ' (automatic)' : ''};{' '}
        {destination.lateMode === 'drop' ? 'older finds are dropped' : 'older finds are posted marked late'}
      </p>
    </>
  );
}

function EnabledSwitch({ destination }: { destination: Destination }) {
  const setEnabled = useSetDestinationEnabled(destination);
  return (
    <Switch
      checked={destination.enabled}
      disabled={setEnabled.isPending}
      onCheckedChange={(enabled) => setEnabled.mutate(enabled)}
      aria-label={`${destination.name} enabled`}
    />
  );
}

function SendTestButton({ destination }: { destination: Destination }) {
  const test = useSendTest(destination);
  const label = `Send test to ${destination.name}`;
  return (
    <Button
      variant="ghost"
      size="icon"
      className="h-8 w-8"
      aria-label={label}
      title={label}
      disabled={test.isPending}
      onClick={() => test.mutate()}
    >
      {test.isPending ? <LoaderCircle className="animate-spin" /> : <Send />}
    </Button>
  );
}

function DeleteDestinationButton({ destination }: { destination: Destination }) {
  const remove = useDeleteDestination(destination);
  return (
    <ConfirmActionButton
      icon={<Trash2 />}
      label={`Delete ${destination.name}`}
      className="text-red-400 hover:text-red-300"
      title="Delete this destination?"
      description={`${destination.name} and its pending deliveries are removed for good. This cannot be undone.`}
      confirmLabel="Delete Destination"
      onConfirm={() => remove.mutate()}
      pending={remove.isPending}
    />
  );
}
