import { queryOptions } from '@tanstack/react-query';
import type { ScriptsPageConfig } from '../../../common/scripts-page.ts';
import type { PurchaseInfo } from '../../../common/system.ts';

/** Slots and wallets, shared by the landing and buyer pages; polled every 15 s (no refetch on focus). */
export function purchaseInfoQuery() {
  return queryOptions<PurchaseInfo>({
    queryKey: ['/api/public/purchase-info'],
    refetchInterval: 15_000,
  });
}

/** The admin-edited content of the public scripts page. */
export function scriptsPageConfigQuery() {
  return queryOptions<{ config: ScriptsPageConfig }>({
    queryKey: ['/api/public/scripts-page-config'],
  });
}
