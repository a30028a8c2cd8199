import type { Selectable } from 'kysely';
import type { ScriptKey, ScriptKeyType } from '../../../common/script-keys.ts';
import type { Db } from '../../db/index.ts';
import type { ScriptKeysTable } from './script-keys.table.ts';

export type ScriptKeyRow = Selectable<ScriptKeysTable>;

const toIso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function scriptKeyRowToScriptKey(row: ScriptKeyRow, activeBindings: number): ScriptKey {
  return {
    id: row.id,
    scriptKey: row.script_key,
    scriptType: row.script_type as ScriptKeyType,
    isActive: row.is_active === 1 ? 1 : 0,
    usageCount: row.usage_count,
    lastUsed: toIso(row.last_used),
    createdAt: new Date(row.created_at).toISOString(),
    expiresAt: toIso(row.expires_at),
    licenseKeyId: row.license_key_id,
    redemptionKeyId: row.redemption_key_id,
    notes: row.notes,
    maxHardwareBindings: row.max_hardware_bindings,
    activeBindings,
  };
}

export interface NewScriptKey {
  scriptKey: string;
  scriptType: ScriptKeyType;
  isActive: 0 | 1;
  maxHardwareBindings: number;
  expiresAt: number | null;
  licenseKeyId: number | null;
  redemptionKeyId: number | null;
  notes: string | null;
}

/** Returns the new key's id. Used by the admin's create and by code redemption. */
export async function insertScriptKey(db: Db, key: NewScriptKey, now: number): Promise<number> {
  const row = await db
    .insertInto('script_keys')
    .values({
      script_key: key.scriptKey,
      script_type: key.scriptType,
      is_active: key.isActive,
      max_hardware_bindings: key.maxHardwareBindings,
      expires_at: key.expiresAt,
      license_key_id: key.licenseKeyId,
      redemption_key_id: key.redemptionKeyId,
      notes: key.notes,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
