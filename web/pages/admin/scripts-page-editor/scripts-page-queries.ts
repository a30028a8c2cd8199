import { queryOptions } from '@tanstack/react-query';
import { getJson } from '@/lib/api.ts';
import type { ScriptsPageConfig } from '../../../../common/scripts-page.ts';

export const SCRIPTS_PAGE_CONFIG_URL = '/api/admin/scripts-page-config';

/** The public scripts page's content as the editor loads it. */
export function scriptsPageConfigQuery() {
  return queryOptions({
    queryKey: [SCRIPTS_PAGE_CONFIG_URL],
    queryFn: () => getJson<{ config: ScriptsPageConfig }>(SCRIPTS_PAGE_CONFIG_URL),
    select: (data) => data.config,
  });
}
