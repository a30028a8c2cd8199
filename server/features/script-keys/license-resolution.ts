import type { AppContext } from '../../context.ts';
import { isSerializationFailure, isUniqueViolation } from '../../db/errors.ts';
import type { Db, DialectName } from '../../db/index.ts';
import { LICENSE_KEY_PATTERN } from '../licensing/license-key.ts';
import { generateScriptKey } from './script-key.ts';
import { findScriptKeyRowById, insertScriptKey, type ScriptKeyRow } from './script-keys.store.ts';

/**
 * The one key model (README, "Keys and codes"): a license key is the buyer's entitlement, and the
 * script key it resolves to is what devices present. Every place a buyer types a key (the loader,
 * the feed, the universal script, /key) accepts either; a license key is looked up here and answered
 * as its script key, which carries its type, device limit and expiry from then on.
 */

/** Whether `given` has the shape of a license key (SCAN-…; typed in any case). */
export function looksLikeLicenseKey(given: string): boolean {
  return LICENSE_KEY_PATTERN.test(given.trim().toUpperCase());
}

interface LicenseRow {
  id: number;
  license_key: string;
  key_type: 'FREE' | 'PREMIUM' | 'VIP';
  status: string;
  max_bindings: number;
  expires_at: number | null;
  script_key_id: number | null;
}

async function findLicenseRow(db: Db, licenseKey: string): Promise<LicenseRow | undefined> {
  return db
    .selectFrom('license_keys')
    .select(['id', 'license_key', 'key_type', 'status', 'max_bindings', 'expires_at', 'script_key_id'])
    .where('license_key', '=', licenseKey)
    .executeTakeFirst();
}

/** Another instance or request gave the license key its script key first: this one writes nothing. */
class AlreadyResolved extends Error {}

/**
 * Gives the license key its script key, inside `trx`: same type, device limit and expiry, switched
 * off when the license key is revoked. The conditional update (script_key_id still null) and the
 * unique index on it are the guard: of two racing creations exactly one commits, on either dialect
 * and across instances; the loser's transaction throws AlreadyResolved and rolls back.
 */
export async function createScriptKeyOfLicense(
  trx: Db,
  dialect: DialectName,
  license: LicenseRow,
  now: number,
): Promise<number> {
  // The license row first, locked on PostgreSQL: racing creations queue here rather than deadlock
  // (the script key's insert share-locks the row its foreign key names, the update below needs it).
  const query = trx.selectFrom('license_keys').select('script_key_id').where('id', '=', license.id);
  const current = await (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  if (!current || current.script_key_id !== license.script_key_id) throw new AlreadyResolved();
  const scriptKeyId = await insertScriptKey(
    trx,
    {
      scriptKey: generateScriptKey(),
      scriptType: license.key_type,
      isActive: license.status === 'REVOKED' ? 0 : 1,
      maxHardwareBindings: license.max_bindings,
      expiresAt: license.expires_at,
      licenseKeyId: license.id,
      redemptionKeyId: null,
      notes: null,
    },
    now,
  );
  const claimed = await trx
    .updateTable('license_keys')
    .set({ script_key_id: scriptKeyId })
    .where('id', '=', license.id)
    .where((eb) =>
      license.script_key_id === null
        ? eb('script_key_id', 'is', null)
        : eb('script_key_id', '=', license.script_key_id),
    )
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) throw new AlreadyResolved();
  return scriptKeyId;
}

/**
 * The script key a license key resolves to, created on first presentation (or again, once, if an
 * admin deleted it); undefined when no such license key exists. Exact text after trimming and
 * upper-casing (license keys are upper case and read aloud, so case never matters for them).
 */
export async function resolveLicenseKey(ctx: AppContext, given: string): Promise<ScriptKeyRow | undefined> {
  const licenseKey = given.trim().toUpperCase();
  for (let attempt = 0; attempt < 3; attempt++) {
    const license = await findLicenseRow(ctx.db, licenseKey);
    if (!license) return undefined;
    if (license.script_key_id !== null) {
      const row = await findScriptKeyRowById(ctx.db, license.script_key_id);
      if (row) return row;
    }
    try {
      const id = await ctx.db
        .transaction()
        .execute((trx) => createScriptKeyOfLicense(trx, ctx.dialect, license, ctx.now()));
      return await findScriptKeyRowById(ctx.db, id);
    } catch (error) {
      // Lost the race: the winner's script key is read on the next pass.
      if (!(error instanceof AlreadyResolved || isUniqueViolation(error) || isSerializationFailure(error)))
        throw error;
    }
  }
  return undefined;
}

declare module '../../context.ts' {
  interface AppServices {
    /** A license key's own script key, made in the license key's transaction (licensing.service.ts). */
    licenseScriptKeys: { create: typeof createScriptKeyOfLicense };
  }
}
