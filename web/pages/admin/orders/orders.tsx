import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card.tsx';
import { AdminPageHeader } from '../shared/admin-page-header.tsx';
import { CountBadge, ListCardTitle, SearchBox } from '../shared/list-controls.tsx';
import { OptionSelect } from '../shared/option-select.tsx';
import { paymentSettingsQuery } from '../shared/queries.ts';
import { useDebouncedValue } from '../shared/use-debounced-value.ts';
import { OrderTable } from './order-table.tsx';
import {
  loadFailureText,
  ORDER_FILTER_LABELS,
  ORDER_FILTERS,
  type OrderFilter,
  ordersQuery,
} from './orders-queries.ts';

/** How long typing pauses before the search asks the server. */
const SEARCH_DEBOUNCE_MS = 300;

/** /admin/orders: every order paid (or not) through BTCPay Server, the code it produced and its webhooks. */
export default function OrdersPage() {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<OrderFilter>('all');
  const debouncedSearch = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const orders = useQuery(ordersQuery({ search: debouncedSearch, status }));
  const settings = useQuery(paymentSettingsQuery());
  const list = orders.data?.orders;
  const filtered = debouncedSearch.trim() !== '' || status !== 'all';

  return (
    <div className="flex min-w-0 flex-col gap-6">
      <AdminPageHeader
        title="Orders"
        description="Orders paid through BTCPay Server and the codes they produced."
      />

      {settings.data && !settings.data.connected && (
        <Alert>
          <AlertTitle>Payments are not connected</AlertTitle>
          <AlertDescription>
            Buyers pay into the wallets by hand until BTCPay Server is connected. Set it up in{' '}
            <Link
              to="/admin/system-configuration"
              className="font-medium text-primary underline underline-offset-4"
            >
              System Configuration
            </Link>{' '}
            (Payment Processor).
          </AlertDescription>
        </Alert>
      )}

      <Card>
        <CardHeader className="gap-4">
          <ListCardTitle query={orders} refreshLabel="Refresh orders">
            Orders
            {orders.data && (
              <CountBadge count={orders.data.count} noun={orders.data.count === 1 ? 'order' : 'orders'} />
            )}
          </ListCardTitle>
          <CardDescription>
            Newest first. A paid order's code is masked; open Redemption Codes to reveal or copy it.
          </CardDescription>
          <div className="flex flex-col gap-3 sm:flex-row">
            <SearchBox
              label="Search orders"
              placeholder="Search by order ID, invoice ID or code..."
              value={search}
              onValueChange={setSearch}
            />
            <div className="sm:w-48">
              <OptionSelect
                aria-label="Filter orders by status"
                value={status}
                options={ORDER_FILTERS}
                onValueChange={setStatus}
                renderOption={(value) => ORDER_FILTER_LABELS[value]}
              />
            </div>
          </div>
        </CardHeader>
        <CardContent className="px-0 pb-2 sm:px-2">
          {orders.isError && !orders.data ? (
            <Alert variant="destructive" className="mx-4 w-auto">
              <AlertTitle>Error loading orders</AlertTitle>
              <AlertDescription>{loadFailureText(orders.error)}</AlertDescription>
            </Alert>
          ) : (
            <OrderTable orders={list} empty={filtered ? 'No orders match.' : 'No orders yet'} />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
