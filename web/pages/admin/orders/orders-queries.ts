import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { getJson } from '@/lib/api.ts';
import { ORDER_STATUSES, type OrderListResponse, type OrderStatus } from '../../../../common/payments.ts';
import { errorText } from '../shared/error-text.ts';
import { QUERY_KEYS } from '../shared/query-keys.ts';

export const ORDERS_URL = QUERY_KEYS.orders;

/** Orders move as buyers pay: the list is polled like the other licensing lists. */
export const ORDERS_REFETCH_MS = 30_000;

/** The status filter: every order, or those of one status. */
export const ORDER_FILTERS = ['all', ...ORDER_STATUSES] as const;
export type OrderFilter = (typeof ORDER_FILTERS)[number];

export const ORDER_FILTER_LABELS: Record<OrderFilter, string> = {
  all: 'All orders',
  pending: 'Pending',
  paid: 'Paid',
  expired: 'Expired',
  invalid: 'Invalid',
};

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: 'Pending',
  paid: 'Paid',
  expired: 'Expired',
  invalid: 'Invalid',
};

/** Orders matching a search (order id, invoice id, code) and a status, newest first; polled every 30 s. */
export function ordersQuery(filters: { search: string; status: OrderFilter }) {
  const search = filters.search.trim();
  return queryOptions({
    // The filters ride in the key as an object, so this query builds its URL itself.
    queryKey: [ORDERS_URL, { search, status: filters.status }] as const,
    queryFn: () => {
      const params = new URLSearchParams({ status: filters.status });
      if (search) params.set('search', search);
      return getJson<OrderListResponse>(`${ORDERS_URL}?${params}`, { failure: 'Failed to load orders' });
    },
    refetchInterval: ORDERS_REFETCH_MS,
    // A new search or filter keeps the rows shown until its answer comes, rather than flashing "Loading".
    placeholderData: keepPreviousData,
  });
}

/** A list's failure as the screen shows it: the query's text and the server's reason. */
export function loadFailureText(error: Error): string {
  return error.cause === undefined ? error.message : `${error.message}: ${errorText(error.cause)}`;
}
