import { useQuery } from '@tanstack/react-query';
import { RotateCcw } from 'lucide-react';
import { useState } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card.tsx';
import {
  DELIVERY_STATES,
  type Delivery,
  type DeliveryState,
  type Destination,
} from '../../../../common/notifications.ts';
import { DateText, LoadingRow, MessageRow } from '../shared/admin-table-cells.tsx';
import { ActionsCell, AdminCell, AdminRow, AdminTable } from '../shared/admin-table-layout.tsx';
import { StatusBadge } from '../shared/key-badges.tsx';
import { CountBadge, ListCardTitle } from '../shared/list-controls.tsx';
import { OptionSelect } from '../shared/option-select.tsx';
import { useRetryDelivery } from './notifications-mutations.ts';
import { deliveriesQuery, loadFailureText } from './notifications-queries.ts';

const COLUMNS = ['Find', 'Destination', 'State', 'Attempts', 'Times', 'Last Error', 'Actions'];

const ALL = 'all';
const STATE_OPTIONS = [ALL, ...DELIVERY_STATES] as const;
const STATE_LABELS: Record<(typeof STATE_OPTIONS)[number], string> = {
  all: 'All states',
  pending: 'Pending',
  sent: 'Sent',
  failed: 'Failed',
  dropped: 'Dropped (too old)',
};
const STATE_TONES = {
  pending: 'info',
  sent: 'good',
  failed: 'warn',
  dropped: 'muted',
} as const satisfies Record<DeliveryState, string>;

/** The latest deliveries, filtered by destination and state; a failed one can be retried. */
export function DeliveriesPanel({ destinations }: { destinations: readonly Destination[] }) {
  const [destinationId, setDestinationId] = useState<string>(ALL);
  const [state, setState] = useState<(typeof STATE_OPTIONS)[number]>(ALL);
  const deliveries = useQuery(
    deliveriesQuery({
      destinationId: destinationId === ALL ? undefined : Number(destinationId),
      state: state === ALL ? undefined : state,
    }),
  );
  const names = new Map(destinations.map((d) => [String(d.id), d.name]));
  const shown = deliveries.data?.deliveries;

  return (
    <Card>
      <CardHeader className="gap-4">
        <ListCardTitle query={deliveries} refreshLabel="Refresh deliveries">
          Deliveries
          {shown && <CountBadge count={shown.length} noun={shown.length === 1 ? 'delivery' : 'deliveries'} />}
        </ListCardTitle>
        <CardDescription>
          The latest posts of finds, newest first. A failed one can be sent again.
        </CardDescription>
        <div className="flex flex-col gap-3 sm:flex-row">
          <div className="sm:w-64">
            <OptionSelect
              aria-label="Filter by destination"
              value={destinationId}
              options={[ALL, ...names.keys()]}
              onValueChange={setDestinationId}
              renderOption={(id) => (id === ALL ? 'All destinations' : names.get(id))}
            />
          </div>
          <div className="sm:w-48">
            <OptionSelect
              aria-label="Filter by state"
              value={state}
              options={STATE_OPTIONS}
              onValueChange={setState}
              renderOption={(option) => STATE_LABELS[option]}
            />
          </div>
        </div>
      </CardHeader>
      <CardContent className="px-0 pb-2 sm:px-2">
        {deliveries.isError && !deliveries.data ? (
          <Alert variant="destructive" className="mx-4 w-auto">
            <AlertDescription>{loadFailureText(deliveries.error)}</AlertDescription>
          </Alert>
        ) : (
          <AdminTable columns={COLUMNS} busy={shown === undefined}>
            {shown === undefined ? (
              <LoadingRow columns={COLUMNS.length}>Loading deliveries...</LoadingRow>
            ) : shown.length === 0 ? (
              <MessageRow columns={COLUMNS.length}>No deliveries match.</MessageRow>
            ) : (
              shown.map((delivery) => <DeliveryRow key={delivery.id} delivery={delivery} />)
            )}
          </AdminTable>
        )}
      </CardContent>
    </Card>
  );
}

function DeliveryRow({ delivery }: { delivery: Delivery }) {
  return (
    <AdminRow data-delivery-id={delivery.id}>
      <AdminCell label="Find">
        <p className="font-medium">{delivery.petName}</p>
        <p className="whitespace-nowrap text-xs tabular-nums text-muted-foreground">{delivery.value}</p>
      </AdminCell>
      <AdminCell label="Destination" className="text-sm">
        {delivery.destinationName}
      </AdminCell>
      <AdminCell label="State">
        <StatusBadge tone={STATE_TONES[delivery.state]}>{STATE_LABELS[delivery.state]}</StatusBadge>
      </AdminCell>
      <AdminCell label="Attempts" className="tabular-nums">
        {delivery.attempts}
      </AdminCell>
      <AdminCell label="Times" className="text-xs text-muted-foreground">
        <dl className="grid grid-cols-[auto_auto] justify-start gap-x-2 gap-y-1">
          <dt>Found</dt>
          <dd>
            <DateText value={delivery.foundAt} />
          </dd>
          {delivery.sentAt === null ? (
            <>
              <dt>Due</dt>
              <dd>
                <DateText value={delivery.dueAt} />
              </dd>
            </>
          ) : (
            <>
              <dt>Sent</dt>
              <dd>
                <DateText value={delivery.sentAt} />
              </dd>
            </>
          )}
        </dl>
      </AdminCell>
      <AdminCell label="Last Error" className="md:min-w-32 md:max-w-48">
        {delivery.lastError ? (
          <p className="line-clamp-2 break-words text-xs text-red-300" title={delivery.lastError}>
            {delivery.lastError}
          </p>
        ) : (
          <span className="text-xs text-muted-foreground">None</span>
        )}
      </AdminCell>
      <ActionsCell>{delivery.state === 'failed' && <RetryButton delivery={delivery} />}</ActionsCell>
    </AdminRow>
  );
}

function RetryButton({ delivery }: { delivery: Delivery }) {
  const retry = useRetryDelivery();
  return (
    <Button
      variant="outline"
      size="sm"
      disabled={retry.isPending}
      aria-label={`Retry ${delivery.petName} to ${delivery.destinationName}`}
      onClick={() => retry.mutate(delivery.id)}
    >
      <RotateCcw />
      Retry
    </Button>
  );
}
