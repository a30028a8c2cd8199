import { QUERY_KEYS } from '../shared/query-keys.ts';

export const ALL_SCRIPT_FILES_URL = QUERY_KEYS.allScriptFiles;
export const HOSTED_SCRIPTS_URL = '/api/admin/hosted-scripts';

// The table is read by the scripts page editor's script picker too, so its query lives in shared/.
export { allScriptFilesQuery } from '../shared/queries.ts';
