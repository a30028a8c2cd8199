import { Link } from 'react-router';
import type { AdminOrder, OrderStatus } from '../../../../common/payments.ts';
import { CutText, DateCell, LoadingRow, MessageRow } from '../shared/admin-table-cells.tsx';
import { AdminCell, AdminRow, AdminTable } from '../shared/admin-table-layout.tsx';
import { StatusBadge } from '../shared/key-badges.tsx';
import { OrderDeliveriesDialog } from './order-deliveries-dialog.tsx';
import { BuyerMail, PaymentNotes } from './order-payment-notes.tsx';
import { ReceivedFigures, ResolveOrderActions } from './order-resolve-actions.tsx';
import { ORDER_STATUS_LABELS } from './orders-queries.ts';

export const ORDER_COLUMNS = [
  'Order',
  'Status',
  'Invoice',
  'Amount',
  'Code',
  'Created',
  'Paid',
  'Deliveries',
];

const STATUS_TONES = {
  pending: 'info',
  paid: 'good',
  expired: 'muted',
  invalid: 'warn',
  underpaid: 'warn',
  mismatch: 'warn',
  refunded: 'muted',
} as const satisfies Record<OrderStatus, string>;

/** Where an order's code is managed (Redemption Codes lists every code). */
const REDEMPTION_CODES_PATH = '/admin/redemption-keys';

/** The order list. `orders` undefined means still loading; `empty` is what an empty list says. */
export function OrderTable({ orders, empty }: { orders: AdminOrder[] | undefined; empty: string }) {
  return (
    <AdminTable columns={ORDER_COLUMNS} busy={orders === undefined}>
      {orders === undefined ? (
        <LoadingRow columns={ORDER_COLUMNS.length}>Loading orders...</LoadingRow>
      ) : orders.length === 0 ? (
        <MessageRow columns={ORDER_COLUMNS.length}>{empty}</MessageRow>
      ) : (
        orders.map((order) => <OrderRow key={order.id} order={order} />)
      )}
    </AdminTable>
  );
}

function OrderRow({ order }: { order: AdminOrder }) {
  return (
    <AdminRow data-order-id={order.id}>
      <AdminCell label="Order">
        <code className="whitespace-nowrap font-mono text-xs">{order.id}</code>
        <p className="text-xs text-muted-foreground">
          {order.keyType}, {order.validityHours} h, {order.maxHardwareBindings}{' '}
          {order.maxHardwareBindings === 1 ? 'device' : 'devices'}
        </p>
        <BuyerMail order={order} />
      </AdminCell>
      <AdminCell label="Status">
        <StatusBadge tone={STATUS_TONES[order.status]}>{ORDER_STATUS_LABELS[order.status]}</StatusBadge>
        <PaymentNotes order={order} />
        <ResolveOrderActions order={order} />
      </AdminCell>
      <AdminCell label="Invoice" className="md:max-w-40">
        {order.invoiceId ? (
          <CutText text={order.invoiceId} className="font-mono text-xs" />
        ) : (
          <span className="text-xs text-muted-foreground">None</span>
        )}
      </AdminCell>
      <AdminCell label="Amount" className="whitespace-nowrap tabular-nums">
        {order.amount} {order.currency}
        <ReceivedFigures order={order} />
      </AdminCell>
      <AdminCell label="Code">
        {order.redemptionCode ? (
          <Link
            to={REDEMPTION_CODES_PATH}
            className="font-mono text-xs text-primary underline-offset-4 hover:underline"
            title="Open Redemption Codes"
            aria-label={`Code ${order.redemptionCode} in Redemption Codes`}
          >
            {order.redemptionCode}
          </Link>
        ) : (
          <span className="text-xs text-muted-foreground">None</span>
        )}
      </AdminCell>
      <DateCell label="Created" value={order.createdAt} />
      <DateCell label="Paid" value={order.paidAt} />
      <AdminCell label="Deliveries">
        <OrderDeliveriesDialog order={order} />
      </AdminCell>
    </AdminRow>
  );
}
