import { QUERY_KEYS } from '../shared/query-keys.ts';

export const LICENSE_KEYS_URL = QUERY_KEYS.licenseKeys;

// The list is read by the Create Script Key dialog too, so its query lives in shared/.
export {
  LICENSE_KEYS_REFETCH_MS,
  type LicenseKeyList,
  type LicenseKeyStatusFilter,
  licenseKeysQuery,
} from '../shared/queries.ts';
