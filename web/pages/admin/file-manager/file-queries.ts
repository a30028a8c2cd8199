import { queryOptions } from '@tanstack/react-query';
import { getJson } from '@/lib/api.ts';
import type { AllScriptsListResponse } from '../../../../common/scripts.ts';

export const ALL_SCRIPT_FILES_URL = '/api/admin/all-scripts/list';
export const HOSTED_SCRIPTS_URL = '/api/admin/hosted-scripts';

/** Every script file, shipped and hosted: the file manager's table. */
export function allScriptFilesQuery() {
  return queryOptions({
    queryKey: [ALL_SCRIPT_FILES_URL],
    queryFn: () => getJson<AllScriptsListResponse>(ALL_SCRIPT_FILES_URL),
  });
}
