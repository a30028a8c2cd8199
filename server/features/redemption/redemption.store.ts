import type { Selectable } from 'kysely';
import type { RedemptionKey, RedemptionKeyType } from '../../../common/redemption.ts';
import type { Db } from '../../db/index.ts';
import { isoOrNull } from '../../db/times.ts';
import type { RedemptionKeysTable } from './redemption.table.ts';

export type RedemptionKeyRow = Selectable<RedemptionKeysTable> & { script_key_id: number | null };
/** A code as redemption reads it. */
export type RedemptionCodeRow = Selectable<RedemptionKeysTable>;

export function redemptionKeyRowToRedemptionKey(row: RedemptionKeyRow): RedemptionKey {
  return {
    id: row.id,
    redemptionCode: row.redemption_code,
    keyType: row.key_type,
    isRedeemed: row.is_redeemed === 1 ? 1 : 0,
    redeemedAt: isoOrNull(row.redeemed_at),
    expiresAt: isoOrNull(row.expires_at),
    createdAt: new Date(row.created_at).toISOString(),
    maxHardwareBindings: row.max_hardware_bindings,
    validityDuration: row.validity_duration,
    notes: row.notes,
    scriptKeyId: row.script_key_id,
  };
}

/** Codes with the script key each became (script_keys.redemption_key_id is unique: at most one). */
function selectRedemptionKeys(db: Db) {
  return db
    .selectFrom('redemption_keys')
    .leftJoin('script_keys', 'script_keys.redemption_key_id', 'redemption_keys.id')
    .selectAll('redemption_keys')
    .select('script_keys.id as script_key_id');
}

/** Newest first. */
export async function listRedemptionKeys(db: Db): Promise<RedemptionKey[]> {
  const rows = await selectRedemptionKeys(db)
    .orderBy('redemption_keys.created_at', 'desc')
    .orderBy('redemption_keys.id', 'desc')
    .execute();
  return rows.map(redemptionKeyRowToRedemptionKey);
}

export async function findRedemptionKeyById(db: Db, id: number): Promise<RedemptionKey | undefined> {
  const row = await selectRedemptionKeys(db).where('redemption_keys.id', '=', id).executeTakeFirst();
  return row && redemptionKeyRowToRedemptionKey(row);
}

export interface NewRedemptionKey {
  redemptionCode: string;
  keyType: RedemptionKeyType;
  maxHardwareBindings: number;
  validityDuration: number;
  expiresAt: number | null;
  notes: string | null;
}

/**
 * Returns the new code's id, or undefined when the code is taken already. The clash is answered by
 * `on conflict do nothing` rather than an error, because on PostgreSQL a failed statement would abort
 * the whole transaction.
 */
export async function insertRedemptionKeyUnlessTaken(
  db: Db,
  key: NewRedemptionKey,
  now: number,
): Promise<number | undefined> {
  const row = await db
    .insertInto('redemption_keys')
    .values({
      redemption_code: key.redemptionCode,
      key_type: key.keyType,
      max_hardware_bindings: key.maxHardwareBindings,
      validity_duration: key.validityDuration,
      expires_at: key.expiresAt,
      notes: key.notes,
      created_at: now,
    })
    .onConflict((oc) => oc.column('redemption_code').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** Deletes the code (a script key made from it stays, unlinked); returns whether a row was deleted. */
export async function deleteRedemptionKeyById(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('redemption_keys').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function findRedemptionCodeRow(db: Db, code: string): Promise<RedemptionCodeRow | undefined> {
  return db.selectFrom('redemption_keys').selectAll().where('redemption_code', '=', code).executeTakeFirst();
}

/**
 * Marks the code redeemed unless it already is; returns whether this call did. The condition is the
 * race guard: of two concurrent redemptions exactly one changes the row.
 */
export async function markRedemptionCodeRedeemed(db: Db, id: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('redemption_keys')
    .set({ is_redeemed: 1, redeemed_at: now })
    .where('id', '=', id)
    .where('is_redeemed', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
