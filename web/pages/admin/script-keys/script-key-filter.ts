import {
  SCRIPT_KEY_TYPE_LABELS,
  type ScriptKey,
  type ScriptKeyType,
  scriptKeyDisplayStatus,
} from '../../../../common/script-keys.ts';

export const SCRIPT_KEY_STATUS_FILTERS = ['all', 'active', 'inactive'] as const;
export type ScriptKeyStatusFilter = (typeof SCRIPT_KEY_STATUS_FILTERS)[number];
export type ScriptKeyTypeFilter = ScriptKeyType | 'all';

export interface ScriptKeyFilters {
  search: string;
  status: ScriptKeyStatusFilter;
  type: ScriptKeyTypeFilter;
}

/**
 * The keys a search (case-insensitive contains over key, type, notes and the linked Discord user's id)
 * and both filters leave.
 * Active and inactive mean what the Status column shows, so an expired key (Expired wins over the
 * switch) is neither; it is still in 'all' and in the total.
 */
export function filterScriptKeys(
  keys: readonly ScriptKey[],
  { search, status, type }: ScriptKeyFilters,
  now: number = Date.now(),
): ScriptKey[] {
  const needle = search.trim().toLowerCase();
  return keys.filter((key) => {
    if (type !== 'all' && key.scriptType !== type) return false;
    if (status === 'active' && scriptKeyDisplayStatus(key, now) !== 'Active') return false;
    if (status === 'inactive' && scriptKeyDisplayStatus(key, now) !== 'Inactive') return false;
    if (!needle) return true;
    return [
      key.scriptKey,
      key.scriptType,
      SCRIPT_KEY_TYPE_LABELS[key.scriptType],
      key.notes ?? '',
      key.discordUserId ?? '',
    ].some((text) => text.toLowerCase().includes(needle));
  });
}

export interface ScriptKeyStats {
  total: number;
  active: number;
  inactive: number;
  expired: number;
  /** Every key whose type is not FREE. */
  premium: number;
}

export function scriptKeyStats(keys: readonly ScriptKey[], now: number = Date.now()): ScriptKeyStats {
  const stats: ScriptKeyStats = { total: keys.length, active: 0, inactive: 0, expired: 0, premium: 0 };
  for (const key of keys) {
    const status = scriptKeyDisplayStatus(key, now);
    if (status === 'Active') stats.active += 1;
    else if (status === 'Inactive') stats.inactive += 1;
    else stats.expired += 1;
    if (key.scriptType !== 'FREE') stats.premium += 1;
  }
  return stats;
}
