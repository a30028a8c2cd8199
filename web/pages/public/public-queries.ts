import { queryOptions } from '@tanstack/react-query';
import { apiRequest, failedStatus } from '@/lib/api.ts';
import { ORDER_LATE_WATCH_MS, ORDER_OPERATOR_POLL_MS, ORDER_POLL_MS } from '../../../common/order-texts.ts';
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
 * How often an order's page asks again, by what it shows: every ORDER_POLL_MS while the order waits
 * for its payment (a confirming one too), and for ORDER_LATE_WATCH_MS after an expired or invalid
 * checkout closed (a late payment, or the operator's settle, shows without a reload); every
 * ORDER_OPERATOR_POLL_MS after that, while an underpaid or mismatched payment waits for the
 * operator, and while a paid code is not yet redeemed (the page then says it was). Final (false):
 * a redeemed code, a refund.
 */
export function orderPollInterval(data: OrderStatusResponse | undefined, now = Date.now()): number | false {
  if (data === undefined) return false;
  switch (data.status) {
    case 'pending':
      return ORDER_POLL_MS;
    case 'expired':
    case 'invalid':
      return now - Date.parse(data.expiresAt) < ORDER_LATE_WATCH_MS ? ORDER_POLL_MS : ORDER_OPERATOR_POLL_MS;
    case 'underpaid':
    case 'mismatch':
      return ORDER_OPERATOR_POLL_MS;
    case 'paid':
      return data.redeemed ? false : ORDER_OPERATOR_POLL_MS;
    case 'refunded':
      return false;
  }
}

/**
 * An order's status, asked with its secret (a POST, so the secret stays out of URLs and logs), as
 * often as orderPollInterval says until it is final, and after a failed call that may pass (not a
 * 404). The poll pauses while the tab is hidden (TanStack Query's interval skips a hidden document)
 * and asks again at once when it is shown.
 */
export function orderStatusQuery(orderId: string, secret: string) {
  const interval = ({ state }: { state: { data?: OrderStatusResponse; error: Error | null } }) =>
    state.error ? (failedStatus(state.error) === 404 ? false : ORDER_POLL_MS) : orderPollInterval(state.data);
  return queryOptions({
    queryKey: ['/api/public/orders', orderId, 'status', secret],
    queryFn: () =>
      apiRequest<OrderStatusResponse>('POST', `/api/public/orders/${encodeURIComponent(orderId)}/status`, {
        secret,
      }),
    refetchInterval: interval,
    refetchOnWindowFocus: (query) => (interval(query) === false ? false : 'always'),
  });
}
