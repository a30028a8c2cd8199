import { type Selectable, sql } from 'kysely';
import type { ScriptKey, ScriptKeyType } from '../../../common/script-keys.ts';
import type { Db, DialectName } from '../../db/index.ts';
import { isoOrNull } from '../../db/times.ts';
import type { ScriptKeysTable } from './script-keys.table.ts';

export type ScriptKeyRow = Selectable<ScriptKeysTable>;

/** A key's row with what the admin list adds: its ACTIVE devices and the Discord user it is linked to. */
type ListedScriptKeyRow = ScriptKeyRow & {
  active_bindings: number | string | null;
  discord_user_id: string | null;
};

export function scriptKeyRowToScriptKey(row: ListedScriptKeyRow): ScriptKey {
  return {
    id: row.id,
    scriptKey: row.script_key,
    scriptType: row.script_type,
    isActive: row.is_active === 1 ? 1 : 0,
    usageCount: row.usage_count,
    lastUsed: isoOrNull(row.last_used),
    createdAt: new Date(row.created_at).toISOString(),
    expiresAt: isoOrNull(row.expires_at),
    licenseKeyId: row.license_key_id,
    redemptionKeyId: row.redemption_key_id,
    notes: row.notes,
    maxHardwareBindings: row.max_hardware_bindings,
    activeBindings: Number(row.active_bindings ?? 0),
    disabledReason: row.disabled_reason,
    discordUserId: row.discord_user_id,
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

/**
 * Script keys with the number of ACTIVE devices bound to each and the Discord user each is linked to
 * (discord_links holds one user per key; the Discord feature writes it, this layer only reads it).
 */
function selectScriptKeys(db: Db) {
  return db
    .selectFrom('script_keys')
    .selectAll('script_keys')
    .select((eb) =>
      eb
        .selectFrom('hardware_bindings')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('hardware_bindings.script_key_id', '=', 'script_keys.id')
        .where('hardware_bindings.status', '=', 'ACTIVE')
        .as('active_bindings'),
    )
    .select((eb) =>
      eb
        .selectFrom('discord_links')
        .select('discord_links.discord_user_id')
        .whereRef('discord_links.script_key_id', '=', 'script_keys.id')
        .orderBy('discord_links.id')
        .limit(1)
        .as('discord_user_id'),
    );
}

/** Newest first. */
export async function listScriptKeys(db: Db): Promise<ScriptKey[]> {
  const rows = await selectScriptKeys(db)
    .orderBy('script_keys.created_at', 'desc')
    .orderBy('script_keys.id', 'desc')
    .execute();
  return rows.map(scriptKeyRowToScriptKey);
}

export async function findScriptKeyById(db: Db, id: number): Promise<ScriptKey | undefined> {
  const row = await selectScriptKeys(db).where('script_keys.id', '=', id).executeTakeFirst();
  return row && scriptKeyRowToScriptKey(row);
}

/**
 * Flips is_active in one statement, so two quick toggles always end where they started. The admin's
 * decision replaces an automatic one: the reason goes either way.
 */
export async function toggleScriptKeyActiveById(db: Db, id: number): Promise<boolean> {
  const result = await db
    .updateTable('script_keys')
    .set({ is_active: sql<number>`1 - is_active`, disabled_reason: null })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Switches an active key off; false when it was already off or does not exist. */
export async function deactivateScriptKeyById(db: Db, id: number): Promise<boolean> {
  const result = await db
    .updateTable('script_keys')
    .set({ is_active: 0 })
    .where('id', '=', id)
    .where('is_active', '=', 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes the key (its bindings and challenge nonces go with it); returns whether a row was deleted. */
export async function deleteScriptKeyById(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('script_keys').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
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

export async function findScriptKeyRowById(db: Db, id: number): Promise<ScriptKeyRow | undefined> {
  return db.selectFrom('script_keys').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findScriptKeyByKey(db: Db, scriptKey: string): Promise<ScriptKeyRow | undefined> {
  return db.selectFrom('script_keys').selectAll().where('script_key', '=', scriptKey).executeTakeFirst();
}

/**
 * The key's row, read inside a binding transaction. On PostgreSQL the row is locked (FOR UPDATE), so
 * binding transactions of one key run one after the other and each counts the bindings the previous
 * one committed; SQLite runs one write transaction at a time anyway.
 */
export async function lockScriptKey(
  trx: Db,
  dialect: DialectName,
  id: number,
): Promise<ScriptKeyRow | undefined> {
  const query = trx.selectFrom('script_keys').selectAll().where('id', '=', id);
  return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}
