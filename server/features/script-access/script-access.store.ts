import type { Selectable } from 'kysely';
import type { DeviceInfo } from '../../../common/hardware-bindings.ts';
import type { Db, DialectName } from '../../db/index.ts';
import type { RedemptionKeysTable } from '../redemption/redemption.table.ts';
import type { ScriptKeyRow } from '../script-keys/script-keys.store.ts';

/*
 * The queries behind what script users' executors do: redeem a code, bind a device to a script key,
 * take and spend a challenge nonce. The services open the transactions.
 */

export type RedemptionCodeRow = Selectable<RedemptionKeysTable>;

/** A device bound to a script key, as the loader needs it. */
export interface ScriptKeyBindingRow {
  id: number;
  hardware_id: string;
  status: string;
}

export async function findRedemptionCode(db: Db, code: string): Promise<RedemptionCodeRow | undefined> {
  return db.selectFrom('redemption_keys').selectAll().where('redemption_code', '=', code).executeTakeFirst();
}

/**
 * Marks the code redeemed unless it already is; returns whether this call did. The condition is the
 * race guard: of two concurrent redemptions exactly one changes the row.
 */
export async function markCodeRedeemed(db: Db, id: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('redemption_keys')
    .set({ is_redeemed: 1, redeemed_at: now })
    .where('id', '=', id)
    .where('is_redeemed', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function findScriptKeyByKey(db: Db, scriptKey: string): Promise<ScriptKeyRow | undefined> {
  return db.selectFrom('script_keys').selectAll().where('script_key', '=', scriptKey).executeTakeFirst();
}

/** Every device bound to the key, revoked ones included (the loader refuses those by name). */
export async function listScriptKeyBindings(db: Db, scriptKeyId: number): Promise<ScriptKeyBindingRow[]> {
  return db
    .selectFrom('hardware_bindings')
    .select(['id', 'hardware_id', 'status'])
    .where('script_key_id', '=', scriptKeyId)
    .execute();
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

export async function findScriptKeyBinding(
  db: Db,
  scriptKeyId: number,
  hardwareId: string,
): Promise<ScriptKeyBindingRow | undefined> {
  return db
    .selectFrom('hardware_bindings')
    .select(['id', 'hardware_id', 'status'])
    .where('script_key_id', '=', scriptKeyId)
    .where('hardware_id', '=', hardwareId)
    .executeTakeFirst();
}

export async function countActiveScriptKeyBindings(db: Db, scriptKeyId: number): Promise<number> {
  const row = await db
    .selectFrom('hardware_bindings')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('script_key_id', '=', scriptKeyId)
    .where('status', '=', 'ACTIVE')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Binds the device ACTIVE; returns the binding's id. The unique (key, device) index refuses a second row. */
export async function insertScriptKeyBinding(
  db: Db,
  binding: { scriptKeyId: number; hardwareId: string; deviceInfo: DeviceInfo | null },
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('hardware_bindings')
    .values({
      license_key_id: null,
      script_key_id: binding.scriptKeyId,
      hardware_id: binding.hardwareId,
      status: 'ACTIVE',
      device_info: binding.deviceInfo ? JSON.stringify(binding.deviceInfo) : null,
      first_bind_date: now,
      last_used_date: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertChallengeNonce(
  db: Db,
  nonce: { nonce: string; scriptKeyId: number; hardwareId: string; expiresAt: number },
): Promise<void> {
  await db
    .insertInto('challenge_nonces')
    .values({
      nonce: nonce.nonce,
      script_key_id: nonce.scriptKeyId,
      hardware_id: nonce.hardwareId,
      expires_at: nonce.expiresAt,
      used_at: null,
    })
    .execute();
}

/** Nonces that can no longer be used, so the table holds only the last minute's. */
export async function deleteExpiredChallengeNonces(db: Db, now: number): Promise<void> {
  await db.deleteFrom('challenge_nonces').where('expires_at', '<=', now).execute();
}

/**
 * Spends the nonce: only an unused, unexpired nonce issued for this key and device matches, and only
 * once (the conditional update), so a replayed URL fails on every instance. Returns whether it did.
 */
export async function consumeChallengeNonce(
  db: Db,
  nonce: { nonce: string; scriptKeyId: number; hardwareId: string },
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('challenge_nonces')
    .set({ used_at: now })
    .where('nonce', '=', nonce.nonce)
    .where('script_key_id', '=', nonce.scriptKeyId)
    .where('hardware_id', '=', nonce.hardwareId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
