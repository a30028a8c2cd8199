import { queryOptions } from '@tanstack/react-query';
import { apiRequest, failedStatus } from '@/lib/api.ts';
import { ORDER_OPERATOR_POLL_MS, ORDER_POLL_MS } from '../../../common/order-texts.ts';
import type { OrderStatusResponse } from '../../../common/payments.ts';
import type { PurchaseInfo } from '../../../common/public-api.ts';
import { PUBLIC_SCRIPTS_PAGE_CONFIG_URL } from '../../../common/public-defaults.ts';
import type { ScriptsPageConfig } from '../../../common/scripts-page.ts';

/** The error a failed purchase-info load carries (the pages show their own texts over it). */
export const PURCHASE_INFO_FETCH_ERROR = 'Failed to fetch purchase info';

const PURCHASE_INFO_KEY = ['/api/public/purchase-info'] as const;

/** Slots and wallets, shared by the landing and buyer pages; polled every 15 s (no refetch on focus). */
export function purchaseInfoQuery() {
  return queryOptions({
    queryKey: PURCHASE_INFO_KEY,
    queryFn: async (): Promise<PurchaseInfo> => {
      try {
        return await apiRequest<PurchaseInfo>('GET', PURCHASE_INFO_KEY.join('/'));
      } catch (cause) {
        throw new Error(PURCHASE_INFO_FETCH_ERROR, { cause });
      }
    },
    refetchInterval: 15_000,
  });
}

/** The admin-edited content of the public scripts page (the default GET of its key). */
export function scriptsPageConfigQuery() {
  return queryOptions<{ config: ScriptsPageConfig }>({
    queryKey: [PUBLIC_SCRIPTS_PAGE_CONFIG_URL],
  });
}

/**
 * An order's status, asked with its secret (a POST, so the secret stays out of URLs and logs). Polled
 * every ORDER_POLL_MS while the order waits for its payment, and after a failed call that may pass
 * (not a 404), until it is paid or ended. The poll pauses while the tab is hidden (TanStack Query's
 * interval skips a hidden document) and asks again at once when it is shown.
 */
export function orderStatusQuery(orderId: string, secret: string) {
  const keepAsking = ({ state }: { state: { data?: OrderStatusResponse; error: Error | null } }) =>
    state.error ? failedStatus(state.error) !== 404 : state.data?.status === 'pending';
  // An underpaid or mismatched payment waits for the operator: asked now and then, not every 3 s.
  const awaitingOperator = ({ state }: { state: { data?: OrderStatusResponse } }) =>
    state.data?.status === 'underpaid' || state.data?.status === 'mismatch';
  return queryOptions({
    queryKey: ['/api/public/orders', orderId, 'status', secret],
    queryFn: () =>
      apiRequest<OrderStatusResponse>('POST', `/api/public/orders/${encodeURIComponent(orderId)}/status`, {
        secret,
      }),
    refetchInterval: (query) =>
      keepAsking(query) ? ORDER_POLL_MS : awaitingOperator(query) ? ORDER_OPERATOR_POLL_MS : false,
    refetchOnWindowFocus: (query) => (keepAsking(query) || awaitingOperator(query) ? 'always' : false),
  });
}
