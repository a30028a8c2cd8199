import {
  type CreateLicenseKeyRequest,
  LICENSE_KEY_TEXTS,
  type LicenseKey,
  type LicenseKeyListResponse,
  type LicenseKeyStatus,
} from '../../../common/licensing.ts';
import type { AppContext } from '../../context.ts';
import { conflict, notFound } from '../../http-error.ts';
import { insertAuditLog } from '../security/security.store.ts';
import { futureExpiry } from './expiry.ts';
import { generateLicenseKey } from './license-key.ts';
import {
  deleteLicenseKeyById,
  deleteScriptKeyOfLicense,
  findLicenseKeyById,
  insertLicenseKey,
  listLicenseKeys,
  revokeLicenseKeyById,
  switchOffScriptKeyOfLicense,
} from './licensing.store.ts';
import { announceLicensingChanged } from './licensing-events.ts';
import { publishScriptKeyChanged } from './script-key-events.ts';

/** Who asked, for the audit log. */
export interface AdminClient {
  ip: string;
}

/** Creates an ACTIVE key with a fresh random code; an expiry, when given, must lie ahead. */
export async function createLicenseKey(
  ctx: AppContext,
  input: CreateLicenseKeyRequest,
  client: AdminClient,
): Promise<LicenseKey> {
  const now = ctx.now();
  const expiresAt = futureExpiry(input.expiresAt, now, LICENSE_KEY_TEXTS.expiresInPast);
  const notes = input.notes?.trim() || null;
  const licenseKey = generateLicenseKey();
  const created = await ctx.db.transaction().execute(async (trx) => {
    const id = await insertLicenseKey(
      trx,
      { licenseKey, keyType: input.keyType, maxBindings: input.maxBindings, expiresAt, notes },
      now,
    );
    // The script key devices will present, made with it: the loader, the feed and /key take either.
    await ctx.services.licenseScriptKeys.create(
      trx,
      ctx.dialect,
      {
        id,
        license_key: licenseKey,
        key_type: input.keyType,
        status: 'ACTIVE',
        max_bindings: input.maxBindings,
        expires_at: expiresAt,
        script_key_id: null,
      },
      now,
    );
    await insertAuditLog(
      trx,
      {
        eventType: 'license_key_created',
        success: true,
        licenseKey,
        ipAddress: client.ip,
        details: {
          id,
          keyType: input.keyType,
          maxBindings: input.maxBindings,
          expiresAt: input.expiresAt ?? null,
        },
      },
      now,
    );
    const created = await findLicenseKeyById(trx, id, now);
    if (!created) throw new Error(`license key ${id} vanished after insert`);
    return created;
  });
  await announceLicensingChanged(ctx, 'license_key');
  return created;
}

export async function listLicenseKeysForAdmin(
  ctx: AppContext,
  query: { search?: string; status?: LicenseKeyStatus | 'all' },
): Promise<LicenseKeyListResponse> {
  const now = ctx.now();
  const search = query.search?.trim() || undefined;
  const status = query.status === 'all' ? undefined : query.status;
  const licenseKeys = await listLicenseKeys(ctx.db, { search, status }, now);
  return { licenseKeys, count: licenseKeys.length, timestamp: new Date(now).toISOString() };
}

/** Revokes a key for good: the loader refuses it from now on. A second revoke answers 409. */
export async function revokeLicenseKey(
  ctx: AppContext,
  id: number,
  client: AdminClient,
): Promise<LicenseKey> {
  const now = ctx.now();
  const { revokedKey, scriptKey } = await ctx.db.transaction().execute(async (trx) => {
    // The conditional update is the guard: of two concurrent revokes exactly one changes the row.
    if (!(await revokeLicenseKeyById(trx, id, now))) {
      const existing = await findLicenseKeyById(trx, id, now);
      throw existing ? conflict(LICENSE_KEY_TEXTS.alreadyRevoked) : notFound(LICENSE_KEY_TEXTS.notFound);
    }
    const revoked = await findLicenseKeyById(trx, id, now);
    if (!revoked) throw new Error(`license key ${id} vanished while revoking`);
    // Its script key stops working with it.
    const scriptKey = await switchOffScriptKeyOfLicense(trx, id);
    await insertAuditLog(
      trx,
      {
        eventType: 'license_key_revoked',
        success: true,
        licenseKey: revoked.licenseKey,
        ipAddress: client.ip,
        details: { id, keyType: revoked.keyType },
      },
      now,
    );
    return { revokedKey: revoked, scriptKey };
  });
  if (scriptKey) await publishScriptKeyChanged(ctx, scriptKey);
  await announceLicensingChanged(ctx, 'license_key');
  return revokedKey;
}

/** Deletes a key, the script key it resolved to, and their hardware bindings. */
export async function deleteLicenseKey(ctx: AppContext, id: number, client: AdminClient): Promise<void> {
  const now = ctx.now();
  const scriptKey = await ctx.db.transaction().execute(async (trx) => {
    const existing = await findLicenseKeyById(trx, id, now);
    const scriptKey = await deleteScriptKeyOfLicense(trx, id);
    if (!existing || !(await deleteLicenseKeyById(trx, id))) throw notFound(LICENSE_KEY_TEXTS.notFound);
    await insertAuditLog(
      trx,
      {
        eventType: 'license_key_deleted',
        success: true,
        licenseKey: existing.licenseKey,
        ipAddress: client.ip,
        details: { id, keyType: existing.keyType, status: existing.status },
      },
      now,
    );
    return scriptKey;
  });
  if (scriptKey) await publishScriptKeyChanged(ctx, scriptKey);
  await announceLicensingChanged(ctx, 'license_key');
}
