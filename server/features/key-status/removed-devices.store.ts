import type { Db } from '../../db/index.ts';

/*
 * Devices a reset removed from a key, refused by the loader and the feed until their cool-down ends
 * (DEVICE_RESET_COOLDOWN_MINUTES). One row per key and device; a later reset moves its end.
 */

/** Blocks `hardwareIds` from binding the key again before `until` (no-op without devices or cool-down). */
export async function blockRemovedDevices(
  db: Db,
  scriptKeyId: number,
  hardwareIds: string[],
  until: number,
): Promise<void> {
  if (hardwareIds.length === 0) return;
  await db
    .insertInto('removed_devices')
    .values(
      hardwareIds.map((hardware_id) => ({ script_key_id: scriptKeyId, hardware_id, blocked_until: until })),
    )
    .onConflict((oc) => oc.columns(['script_key_id', 'hardware_id']).doUpdateSet({ blocked_until: until }))
    .execute();
}

/** The key's devices still in their cool-down at `now`, with when each ends. */
export async function listRemovedDevices(
  db: Db,
  scriptKeyId: number,
  now: number,
): Promise<{ hardware_id: string; blocked_until: number }[]> {
  const rows = await db
    .selectFrom('removed_devices')
    .select(['hardware_id', 'blocked_until'])
    .where('script_key_id', '=', scriptKeyId)
    .where('blocked_until', '>', now)
    .execute();
  return rows.map((row) => ({ hardware_id: row.hardware_id, blocked_until: Number(row.blocked_until) }));
}

/** When the device's cool-down on the key ends, or undefined when it may bind now. */
export async function findRemovedDevice(
  db: Db,
  scriptKeyId: number,
  hardwareId: string,
  now: number,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('removed_devices')
    .select('blocked_until')
    .where('script_key_id', '=', scriptKeyId)
    .where('hardware_id', '=', hardwareId)
    .where('blocked_until', '>', now)
    .executeTakeFirst();
  return row ? Number(row.blocked_until) : undefined;
}
