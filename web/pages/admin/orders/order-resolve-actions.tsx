import { BadgeCheck, Undo2 } from 'lucide-react';
import { ConfirmActionButton } from '@/components/confirm-action-button.tsx';
import type { AdminOrder } from '../../../../common/payments.ts';
import { useResolveOrder } from './orders-queries.ts';

/** underpaid and mismatch wait for the operator; refunded keeps its figures for the record. */
const WAITING = new Set<AdminOrder['status']>(['underpaid', 'mismatch']);

/** Under the price: what BTCPay says was paid, for an order whose payment did not match. */
export function ReceivedFigures({ order }: { order: AdminOrder }) {
  // A pending order's figures are a partial payment's (what arrived so far).
  if (!order.received || (order.status === 'pending' && order.paymentState !== 'partial')) return null;
  const differs = order.received.amount !== order.amount || order.received.currency !== order.currency;
  if (!differs && order.status === 'paid') return null;
  return (
    <p className="text-xs text-amber-300" data-testid="received-figures">
      Received {order.received.amount} {order.received.currency}
    </p>
  );
}

/**
 * An underpaid or mismatched order's two decisions, each asked first: issue its code anyway (the
 * buyer made it right, or the difference does not matter), or record that the payment was refunded.
 */
export function ResolveOrderActions({ order }: { order: AdminOrder }) {
  const resolve = useResolveOrder();
  if (!WAITING.has(order.status)) return null;
  const figures = order.received
    ? `BTCPay says ${order.received.amount} ${order.received.currency} was paid for this ${order.amount} ${order.currency} order.`
    : `The payment did not match this ${order.amount} ${order.currency} order.`;
  return (
    <div className="mt-1 flex gap-1">
      <ConfirmActionButton
        icon={<BadgeCheck />}
        label={`Issue code anyway for order ${order.id}`}
        className="text-emerald-400 hover:text-emerald-300"
        title="Issue the code anyway?"
        description={`${figures} The order becomes paid and its code appears on the buyer's order page.`}
        confirmLabel="Issue Code"
        confirmVariant="default"
        onConfirm={() => resolve.mutate({ orderId: order.id, action: 'issue_code' })}
        pending={resolve.isPending}
      />
      <ConfirmActionButton
        icon={<Undo2 />}
        label={`Mark order ${order.id} refunded`}
        title="Mark the payment refunded?"
        description={`${figures} Refund it in BTCPay Server first; the order then ends without a code.`}
        confirmLabel="Mark Refunded"
        onConfirm={() => resolve.mutate({ orderId: order.id, action: 'refunded' })}
        pending={resolve.isPending}
      />
    </div>
  );
}
