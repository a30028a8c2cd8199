import { Webhook } from 'lucide-react';
import { Button } from '@/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog.tsx';
import { formatDate } from '../../../../common/format.ts';
import type { AdminOrder, WebhookOutcome } from '../../../../common/payments.ts';
import { StatusBadge } from '../shared/key-badges.tsx';

/** What each delivery did, in words. */
export const OUTCOME_LABELS: Record<WebhookOutcome, string> = {
  paid: 'Marked paid, code created',
  already_paid: 'Already paid: nothing changed',
  expired: 'Order expired',
  invalid: 'Order invalid',
  unchanged: 'Invoice still open',
  unknown_invoice: 'Unknown invoice',
  ignored: 'Ignored',
  underpaid: 'Settled for less than the price: no code',
  mismatch: 'Settled in another currency or amount: no code',
};

const OUTCOME_TONES = {
  paid: 'good',
  already_paid: 'muted',
  expired: 'muted',
  invalid: 'warn',
  unchanged: 'info',
  unknown_invoice: 'warn',
  ignored: 'muted',
  underpaid: 'warn',
  mismatch: 'warn',
} as const satisfies Record<WebhookOutcome, string>;

/** The button with the order's delivery count, opening the list of webhook deliveries it received. */
export function OrderDeliveriesDialog({ order }: { order: AdminOrder }) {
  const count = order.deliveries.length;
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button
          variant="outline"
          size="sm"
          className="h-7 whitespace-nowrap px-2 text-xs"
          aria-label={`Webhook deliveries of order ${order.id} (${count})`}
        >
          <Webhook />
          {count}
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Webhook deliveries</DialogTitle>
          <DialogDescription>
            What BTCPay Server sent for order <code className="font-mono">{order.id}</code>, newest first.
          </DialogDescription>
        </DialogHeader>
        {count === 0 ? (
          <p className="text-sm text-muted-foreground">
            No webhook delivery yet. The reconciler reads the invoice every minute all the same.
          </p>
        ) : (
          <ul className="grid gap-2" aria-label="Deliveries">
            {order.deliveries.map((delivery) => (
              <li key={delivery.id} className="grid gap-1 rounded-md border p-3 text-sm">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span className="font-medium">{delivery.type}</span>
                  <StatusBadge tone={OUTCOME_TONES[delivery.outcome]}>
                    {OUTCOME_LABELS[delivery.outcome]}
                  </StatusBadge>
                </div>
                <div className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
                  <span>Received {formatDate(delivery.receivedAt)}</span>
                  <span>
                    {delivery.isRedelivery === 1
                      ? `Redelivery of ${delivery.originalDeliveryId ?? 'an earlier delivery'}`
                      : 'First delivery'}
                  </span>
                  <span className="break-all font-mono">{delivery.deliveryId}</span>
                </div>
              </li>
            ))}
          </ul>
        )}
      </DialogContent>
    </Dialog>
  );
}
