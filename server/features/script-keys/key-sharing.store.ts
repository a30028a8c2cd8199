import { sql } from 'kysely';
import type { KeySharingUse, ScriptKeyType } from '../../../common/script-keys.ts';
import type { Db } from '../../db/index.ts';

/** One sighting of a key at an address, as the loader (or the feed) hands it over. */
export interface KeyAddressSighting {
  scriptKeyId: number;
  address: string;
  network: string;
  seenAt: number;
}

/**
 * Records a sighting: a new (key, address) row, or a later last_seen on the existing one. The row is
 * made from the key's own row, so a key deleted meanwhile adds nothing (no foreign-key failure).
 */
export async function upsertKeyAddress(db: Db, sighting: KeyAddressSighting): Promise<void> {
  const seenAt = sql<number>`cast(${sighting.seenAt} as bigint)`;
  await db
    .insertInto('script_key_addresses')
    .columns(['script_key_id', 'address', 'network', 'first_seen', 'last_seen'])
    .expression((eb) =>
      eb
        .selectFrom('script_keys')
        .select([
          'script_keys.id',
          sql<string>`cast(${sighting.address} as text)`.as('address'),
          sql<string>`cast(${sighting.network} as text)`.as('network'),
          seenAt.as('first_seen'),
          seenAt.as('last_seen'),
        ])
        .where('script_keys.id', '=', sighting.scriptKeyId),
    )
    .onConflict((oc) =>
      oc.columns(['script_key_id', 'address']).doUpdateSet({
        // Two instances may write out of order: keep the later time.
        last_seen: sql<number>`case when excluded.last_seen > script_key_addresses.last_seen
          then excluded.last_seen else script_key_addresses.last_seen end`,
      }),
    )
    .execute();
}

/** Distinct addresses and networks a key was used from since `since`. */
export async function countKeyAddresses(
  db: Db,
  scriptKeyId: number,
  since: number,
): Promise<{ addresses: number; networks: number }> {
  const row = await db
    .selectFrom('script_key_addresses')
    .select((eb) => [
      eb.fn.count<number>('address').distinct().as('addresses'),
      eb.fn.count<number>('network').distinct().as('networks'),
    ])
    .where('script_key_id', '=', scriptKeyId)
    .where('last_seen', '>', since)
    .executeTakeFirst();
  return { addresses: Number(row?.addresses ?? 0), networks: Number(row?.networks ?? 0) };
}

export interface SharedKeyRow {
  id: number;
  scriptKey: string;
  scriptType: ScriptKeyType;
  isActive: number;
  disabledReason: string | null;
  addresses: number;
  networks: number;
  lastSeen: number;
}

/** Keys used from more than `maxAddresses` addresses or `maxNetworks` networks since `since`, most addresses first. */
export async function listKeysOverThresholds(
  db: Db,
  since: number,
  maxAddresses: number,
  maxNetworks: number,
): Promise<SharedKeyRow[]> {
  const addresses = sql<number>`count(distinct script_key_addresses.address)`;
  const networks = sql<number>`count(distinct script_key_addresses.network)`;
  const rows = await db
    .selectFrom('script_key_addresses')
    .innerJoin('script_keys', 'script_keys.id', 'script_key_addresses.script_key_id')
    .select((eb) => [
      'script_keys.id',
      'script_keys.script_key',
      'script_keys.script_type',
      'script_keys.is_active',
      'script_keys.disabled_reason',
      addresses.as('addresses'),
      networks.as('networks'),
      eb.fn.max('script_key_addresses.last_seen').as('last_seen'),
    ])
    .where('script_key_addresses.last_seen', '>', since)
    .groupBy([
      'script_keys.id',
      'script_keys.script_key',
      'script_keys.script_type',
      'script_keys.is_active',
      'script_keys.disabled_reason',
    ])
    .having((eb) => eb.or([eb(addresses, '>', maxAddresses), eb(networks, '>', maxNetworks)]))
    .orderBy(addresses, 'desc')
    .orderBy('script_keys.id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    scriptKey: row.script_key,
    scriptType: row.script_type,
    isActive: row.is_active,
    disabledReason: row.disabled_reason,
    addresses: Number(row.addresses),
    networks: Number(row.networks),
    lastSeen: Number(row.last_seen),
  }));
}

/** The key's latest uses since `since`, newest first. */
export async function listKeyUses(
  db: Db,
  scriptKeyId: number,
  since: number,
  limit: number,
): Promise<KeySharingUse[]> {
  const rows = await db
    .selectFrom('script_key_addresses')
    .select(['address', 'network', 'first_seen', 'last_seen'])
    .where('script_key_id', '=', scriptKeyId)
    .where('last_seen', '>', since)
    .orderBy('last_seen', 'desc')
    .orderBy('address')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    address: row.address,
    network: row.network,
    firstSeen: new Date(Number(row.first_seen)).toISOString(),
    lastSeen: new Date(Number(row.last_seen)).toISOString(),
  }));
}

/** Deletes up to `limit` sightings last seen at or before `before`; returns how many. */
export async function deleteKeyAddressesBefore(db: Db, before: number, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('script_key_addresses')
    .where((eb) =>
      eb(
        eb.refTuple('script_key_id', 'address'),
        'in',
        eb
          .selectFrom('script_key_addresses')
          .select(['script_key_id', 'address'])
          .where('last_seen', '<=', before)
          .limit(limit)
          .$asTuple('script_key_id', 'address'),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Switches an active key off with the reason its buyer sees; returns the key, or undefined when it
 * was off already (another instance was first) or is gone.
 */
export async function disableScriptKeyWithReason(
  db: Db,
  id: number,
  reason: string,
): Promise<string | undefined> {
  const row = await db
    .updateTable('script_keys')
    .set({ is_active: 0, disabled_reason: reason })
    .where('id', '=', id)
    .where('is_active', '=', 1)
    .returning('script_key')
    .executeTakeFirst();
  return row?.script_key;
}

/** Forgets where the key was used from (the admin switched it back on: its count starts afresh). */
export async function deleteKeyAddressesOfKey(db: Db, scriptKeyId: number): Promise<void> {
  await db.deleteFrom('script_key_addresses').where('script_key_id', '=', scriptKeyId).execute();
}
