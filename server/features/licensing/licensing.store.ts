import { type Selectable, sql } from 'kysely';
import {
  type LicenseKey,
  type LicenseKeyStatus,
  type LicenseKeyType,
  licenseKeyStatus,
} from '../../../common/licensing.ts';
import type { Db } from '../../db/index.ts';
import { isoOrNull } from '../../db/times.ts';
import type { LicenseKeysTable } from './licensing.table.ts';

export type LicenseKeyRow = Selectable<LicenseKeysTable> & {
  active_bindings: number | null;
  /** Uses and last use of the script key it resolved to (the loader counts uses there). */
  key_usage: number | null;
  key_last_used: number | null;
};

/** The later of two optional times (epoch ms; bigint columns may come back as text). */
function latest(a: number | null, b: number | null): number | null {
  const times = [a, b].filter((time) => time !== null).map(Number);
  return times.length === 0 ? null : Math.max(...times);
}

/** Status is derived at `now`, so a key past its expiry reads EXPIRED without a write. */
export function licenseKeyRowToLicenseKey(row: LicenseKeyRow, now: number): LicenseKey {
  return {
    id: row.id,
    licenseKey: row.license_key,
    keyType: row.key_type,
    status: licenseKeyStatus(row.status, row.expires_at, now),
    maxBindings: row.max_bindings,
    activeBindings: Number(row.active_bindings ?? 0),
    usageCount: row.usage_count + Number(row.key_usage ?? 0),
    lastUsed: isoOrNull(latest(row.last_used, row.key_last_used)),
    expiresAt: isoOrNull(row.expires_at),
    createdAt: new Date(row.created_at).toISOString(),
    revokedAt: isoOrNull(row.revoked_at),
    notes: row.notes,
  };
}

/** License keys with the number of ACTIVE devices bound to each. */
function selectLicenseKeys(db: Db) {
  return db
    .selectFrom('license_keys')
    .selectAll('license_keys')
    .select((eb) =>
      eb
        .selectFrom('hardware_bindings')
        .select(eb.fn.countAll<number>().as('n'))
        // Devices bind to the script key the license key resolves to (and, before that model, to
        // the license key itself): both count.
        .where((inner) =>
          inner.or([
            inner('hardware_bindings.license_key_id', '=', inner.ref('license_keys.id')),
            inner('hardware_bindings.script_key_id', '=', inner.ref('license_keys.script_key_id')),
          ]),
        )
        .where('hardware_bindings.status', '=', 'ACTIVE')
        .as('active_bindings'),
    )
    .select((eb) => [
      eb
        .selectFrom('script_keys')
        .select('script_keys.usage_count')
        .whereRef('script_keys.id', '=', 'license_keys.script_key_id')
        .as('key_usage'),
      eb
        .selectFrom('script_keys')
        .select('script_keys.last_used')
        .whereRef('script_keys.id', '=', 'license_keys.script_key_id')
        .as('key_last_used'),
    ]);
}

export async function findLicenseKeyById(db: Db, id: number, now: number): Promise<LicenseKey | undefined> {
  const row = await selectLicenseKeys(db).where('license_keys.id', '=', id).executeTakeFirst();
  return row && licenseKeyRowToLicenseKey(row, now);
}

/** `text` as a LIKE pattern matching it anywhere, lower-cased, with the LIKE wildcards taken literally. */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export interface LicenseKeyFilter {
  /** Case-insensitive contains over the key and the notes. */
  search?: string;
  status?: LicenseKeyStatus;
}

/** Newest first. */
export async function listLicenseKeys(db: Db, filter: LicenseKeyFilter, now: number): Promise<LicenseKey[]> {
  let query = selectLicenseKeys(db);
  if (filter.search) {
    const pattern = containsPattern(filter.search);
    // lower() on both sides because LIKE is case-sensitive on PostgreSQL and (for ASCII) not on SQLite.
    query = query.where(
      sql<boolean>`(lower(license_keys.license_key) like ${pattern} escape '\\' or lower(coalesce(license_keys.notes, '')) like ${pattern} escape '\\')`,
    );
  }
  switch (filter.status) {
    case 'REVOKED':
      query = query.where('license_keys.status', '=', 'REVOKED');
      break;
    case 'EXPIRED':
      query = query
        .where('license_keys.status', '<>', 'REVOKED')
        .where('license_keys.expires_at', 'is not', null)
        .where('license_keys.expires_at', '<=', now);
      break;
    case 'ACTIVE':
      query = query
        .where('license_keys.status', '<>', 'REVOKED')
        .where((eb) =>
          eb.or([eb('license_keys.expires_at', 'is', null), eb('license_keys.expires_at', '>', now)]),
        );
      break;
    case undefined:
      break;
  }
  const rows = await query
    .orderBy('license_keys.created_at', 'desc')
    .orderBy('license_keys.id', 'desc')
    .execute();
  return rows.map((row) => licenseKeyRowToLicenseKey(row, now));
}

export interface NewLicenseKey {
  licenseKey: string;
  keyType: LicenseKeyType;
  maxBindings: number;
  expiresAt: number | null;
  notes: string | null;
}

/** Returns the new key's id. */
export async function insertLicenseKey(db: Db, key: NewLicenseKey, now: number): Promise<number> {
  const row = await db
    .insertInto('license_keys')
    .values({
      license_key: key.licenseKey,
      key_type: key.keyType,
      status: 'ACTIVE',
      max_bindings: key.maxBindings,
      expires_at: key.expiresAt,
      notes: key.notes,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Revokes the key unless it is revoked already; returns whether this call revoked it. */
export async function revokeLicenseKeyById(db: Db, id: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('license_keys')
    .set({ status: 'REVOKED', revoked_at: now })
    .where('id', '=', id)
    .where('status', '<>', 'REVOKED')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes the key (its bindings go with it); returns whether a row was deleted. */
export async function deleteLicenseKeyById(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('license_keys').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The script key string a license key resolved to, or null when it has none. */
async function scriptKeyOfLicense(
  db: Db,
  id: number,
): Promise<{ id: number; script_key: string } | undefined> {
  return db
    .selectFrom('license_keys')
    .innerJoin('script_keys', 'script_keys.id', 'license_keys.script_key_id')
    .select(['script_keys.id', 'script_keys.script_key'])
    .where('license_keys.id', '=', id)
    .executeTakeFirst();
}

/** Switches off the script key a revoked license key resolved to; returns its string (null: none). */
export async function switchOffScriptKeyOfLicense(db: Db, id: number): Promise<string | null> {
  const owned = await scriptKeyOfLicense(db, id);
  if (!owned) return null;
  await db.updateTable('script_keys').set({ is_active: 0 }).where('id', '=', owned.id).execute();
  return owned.script_key;
}

/** Deletes the script key a license key resolved to (with its devices); returns its string (null: none). */
export async function deleteScriptKeyOfLicense(db: Db, id: number): Promise<string | null> {
  const owned = await scriptKeyOfLicense(db, id);
  if (!owned) return null;
  await db.deleteFrom('script_keys').where('id', '=', owned.id).execute();
  return owned.script_key;
}
