import { AlertTriangle, XCircle } from 'lucide-react';
import { glassCard } from '@/components/public-shell.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { formatDate } from '../../../common/format.ts';
import { ORDER_TEXTS } from '../../../common/order-texts.ts';
import type { OrderStatusResponse } from '../../../common/payments.ts';

/*
 * The order page's pieces for an order that ends without a code (expired, invalid, refunded) or
 * waits for the operator (underpaid, mismatch), and the small parts the page shares with them.
 */

/** The order's state in a line (the page's heading, and what its live region announces). */
export function statusTitle(order: Pick<OrderStatusResponse, 'status' | 'payment' | 'redeemed'>): string {
  switch (order.status) {
    case 'pending':
      return order.payment === 'processing'
        ? ORDER_TEXTS.processing
        : order.payment === 'partial'
          ? ORDER_TEXTS.partial
          : ORDER_TEXTS.waiting;
    case 'paid':
      return order.redeemed ? ORDER_TEXTS.redeemed : ORDER_TEXTS.paid;
    case 'expired':
      return ORDER_TEXTS.expired;
    case 'invalid':
      return ORDER_TEXTS.invalid;
    case 'underpaid':
    case 'mismatch':
      return ORDER_TEXTS.mismatch;
    case 'refunded':
      return ORDER_TEXTS.refunded;
  }
}

export function StartAgainButton() {
  return (
    <Button
      asChild
      className="bg-gradient-to-r from-yellow-500 to-orange-600 text-slate-950 hover:from-yellow-400 hover:to-orange-500"
    >
      <a href="/buyer">{ORDER_TEXTS.startAgain}</a>
    </Button>
  );
}

export function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-wrap justify-between gap-2 border-b border-white/5 py-2 last:border-0">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium text-foreground">{children}</dd>
    </div>
  );
}

/** One state of the order: an icon and a title, what it means, and what the buyer can do. */
export function StatusCard({
  icon,
  title,
  description,
  className,
  children,
}: {
  icon: React.ReactNode;
  title: string;
  description: React.ReactNode;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <Card className={glassCard}>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-lg">
          {icon}
          {title}
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className={className}>{children}</CardContent>
    </Card>
  );
}

/** The order's price and what BTCPay says arrived, as rows of a <dl>. */
export function PaymentFigureRows({
  order,
  receivedLabel = 'Received',
}: {
  order: OrderStatusResponse;
  receivedLabel?: string;
}) {
  return (
    <>
      {order.expected && <Row label="Price">{money(order.expected)}</Row>}
      {order.received && <Row label={receivedLabel}>{money(order.received)}</Row>}
    </>
  );
}

export function EndedCard({ order }: { order: OrderStatusResponse }) {
  return (
    <StatusCard
      icon={<XCircle className="h-5 w-5 text-red-300" aria-hidden="true" />}
      title={statusTitle(order)}
      description={endedText(order)}
    >
      <StartAgainButton />
    </StatusCard>
  );
}

/** Why an order ended, in the buyer's words. */
function endedText(order: OrderStatusResponse): string {
  if (order.status === 'expired')
    return `The checkout closed on ${formatDate(order.expiresAt)} without a settled payment. ${ORDER_TEXTS.expiredWatching}`;
  if (order.status === 'refunded')
    return 'Your payment did not match this order and was refunded, so no code was made. You can start a new order.';
  return 'The checkout did not accept the payment. If you sent one, open a ticket in the community chat with its transaction hash.';
}

/** "0.01 USD". */
export const money = (value: { amount: string; currency: string }) => `${value.amount} ${value.currency}`;

/** A settled payment that does not match the order: no code, what was paid against the price, what to do. */
export function MismatchCard({ order, orderId }: { order: OrderStatusResponse; orderId: string }) {
  const less = order.status === 'underpaid';
  return (
    <StatusCard
      icon={<AlertTriangle className="h-5 w-5 text-amber-300" aria-hidden="true" />}
      title={ORDER_TEXTS.mismatch}
      description={`${
        less
          ? 'The payment that arrived is less than the price of this order.'
          : 'The payment that arrived is in another currency or for another amount than this order.'
      } ${ORDER_TEXTS.mismatchHelp}`}
    >
      <dl className="text-sm">
        <PaymentFigureRows order={order} />
        <Row label="Order ID">
          <code className="font-mono">{orderId}</code>
        </Row>
      </dl>
    </StatusCard>
  );
}
