import type { BindingReset } from '../../../common/hardware-bindings.ts';
import type { Db } from '../../db/index.ts';

export interface KeyDeviceRow {
  hardware_id: string;
  first_bind_date: number;
  last_used_date: number | null;
}

/** The key's ACTIVE devices, first bound first. */
export async function listActiveDevices(db: Db, scriptKeyId: number): Promise<KeyDeviceRow[]> {
  return db
    .selectFrom('hardware_bindings')
    .select(['hardware_id', 'first_bind_date', 'last_used_date'])
    .where('script_key_id', '=', scriptKeyId)
    .where('status', '=', 'ACTIVE')
    .orderBy('first_bind_date')
    .orderBy('id')
    .execute();
}

/**
 * Removes the key's ACTIVE devices; returns how many. Revoked ones stay: an admin refused those
 * devices by name, and a buyer's reset must not undo that.
 */
export async function deleteActiveDevices(db: Db, scriptKeyId: number): Promise<number> {
  const result = await db
    .deleteFrom('hardware_bindings')
    .where('script_key_id', '=', scriptKeyId)
    .where('status', '=', 'ACTIVE')
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** When the buyer's weekly-budget resets since `since` happened, oldest first (an admin's spend nothing). */
export async function listBudgetResetTimes(db: Db, scriptKeyId: number, since: number): Promise<number[]> {
  const rows = await db
    .selectFrom('hwid_resets')
    .select('reset_at')
    .where('script_key_id', '=', scriptKeyId)
    .where('used_extra', '=', 0)
    .where('reset_by', '=', 'buyer')
    .where('reset_at', '>', since)
    .orderBy('reset_at')
    .execute();
  return rows.map((row) => Number(row.reset_at));
}

export interface NewHwidReset {
  scriptKeyId: number;
  by: 'buyer' | 'admin';
  ip: string | null;
  removed: number;
  usedExtra: boolean;
}

export async function insertHwidReset(db: Db, reset: NewHwidReset, now: number): Promise<void> {
  await db
    .insertInto('hwid_resets')
    .values({
      script_key_id: reset.scriptKeyId,
      reset_at: now,
      reset_by: reset.by,
      ip_address: reset.ip,
      removed: reset.removed,
      used_extra: reset.usedExtra ? 1 : 0,
    })
    .execute();
}

/** Spends one granted reset if the key has one left; false when it has none. */
export async function spendExtraReset(db: Db, scriptKeyId: number): Promise<boolean> {
  const result = await db
    .updateTable('script_keys')
    .set((eb) => ({ extra_resets: eb('extra_resets', '-', 1) }))
    .where('id', '=', scriptKeyId)
    .where('extra_resets', '>', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Adds granted resets; false when the key is gone. */
export async function addExtraResets(db: Db, scriptKeyId: number, count: number): Promise<boolean> {
  const result = await db
    .updateTable('script_keys')
    .set((eb) => ({ extra_resets: eb('extra_resets', '+', count) }))
    .where('id', '=', scriptKeyId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Resets since `since`, newest first, with their key: the bindings screen's history. */
export async function listResetsSince(db: Db, since: number, limit: number): Promise<BindingReset[]> {
  const rows = await db
    .selectFrom('hwid_resets')
    .innerJoin('script_keys', 'script_keys.id', 'hwid_resets.script_key_id')
    .select([
      'hwid_resets.id',
      'script_keys.script_key',
      'hwid_resets.reset_by',
      'hwid_resets.ip_address',
      'hwid_resets.removed',
      'hwid_resets.reset_at',
    ])
    .where('hwid_resets.reset_at', '>', since)
    .orderBy('hwid_resets.reset_at', 'desc')
    .orderBy('hwid_resets.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    scriptKey: row.script_key,
    by: row.reset_by === 'admin' ? 'admin' : 'buyer',
    ipAddress: row.ip_address,
    removed: Number(row.removed),
    resetAt: new Date(Number(row.reset_at)).toISOString(),
  }));
}

/** The key's unused granted resets, or undefined when the key is gone. */
export async function findExtraResets(db: Db, scriptKeyId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('script_keys')
    .select('extra_resets')
    .where('id', '=', scriptKeyId)
    .executeTakeFirst();
  return row?.extra_resets;
}
