import { QUERY_KEYS } from '../shared/query-keys.ts';

export const REDEMPTION_KEYS_URL = QUERY_KEYS.redemptionKeys;

// The list is read by the Create Script Key dialog too, so its query lives in shared/.
export { redemptionKeysQuery } from '../shared/queries.ts';
