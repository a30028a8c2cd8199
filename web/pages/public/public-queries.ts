import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api.ts';
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
