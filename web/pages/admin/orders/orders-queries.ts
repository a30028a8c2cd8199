import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, getJson } from '@/lib/api.ts';
import { toast } from '@/lib/toast.ts';
import { toastFailure } from '@/lib/toast-failure.ts';
import {
  ORDER_STATUSES,
  type OrderListResponse,
  type OrderResolution,
  type OrderStatus,
  type ResolveOrderResponse,
} from '../../../../common/payments.ts';
import { errorText } from '../shared/error-text.ts';
import { QUERY_KEYS } from '../shared/query-keys.ts';
import { invalidateUrls, LICENSING_URLS } from '../shared/refresh.ts';

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
  underpaid: 'Underpaid',
  mismatch: 'Mismatch',
  refunded: 'Refunded',
};

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: 'Pending',
  paid: 'Paid',
  expired: 'Expired',
  invalid: 'Invalid',
  underpaid: 'Underpaid',
  mismatch: 'Mismatch',
  refunded: 'Refunded',
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

/** What each decision on an underpaid or mismatched order says once done. */
const RESOLVED_TOASTS: Record<OrderResolution, string> = {
  issue_code: 'Code issued: the buyer sees it on their order page.',
  refunded: "Marked refunded: the buyer's order page says so.",
};

/**
 * POST /api/admin/orders/{id}/resolve: issue an underpaid or mismatched order's code anyway, or
 * record it refunded. The orders and, for a code, the licensing lists are read again.
 */
export function useResolveOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, action }: { orderId: string; action: OrderResolution }) =>
      apiRequest<ResolveOrderResponse>('POST', `${ORDERS_URL}/${encodeURIComponent(orderId)}/resolve`, {
        action,
      }),
    onSuccess: async (_answer, { action }) => {
      toast({ title: 'Order resolved', description: RESOLVED_TOASTS[action] });
      await invalidateUrls(queryClient, [ORDERS_URL, ...LICENSING_URLS]);
    },
    onError: toastFailure('Error resolving order', 'Failed to resolve the order'),
  });
}
