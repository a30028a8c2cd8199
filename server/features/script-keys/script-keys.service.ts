import type { z } from 'zod';
import {
  type CreateScriptKeySchema,
  PREMIUM_24H_MS,
  SCRIPT_KEY_TEXTS,
  type ScriptKey,
  type ScriptKeyListResponse,
  type ScriptKeyToggleResponse,
} from '../../../common/script-keys.ts';
import type { AppContext } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { isoOrNull } from '../../db/times.ts';
import { badRequest, conflict, notFound } from '../../http-error.ts';
import { futureExpiry } from '../licensing/expiry.ts';
import type { AdminClient } from '../licensing/licensing.service.ts';
import { findLicenseKeyById } from '../licensing/licensing.store.ts';
import { announceLicensingChanged } from '../licensing/licensing-events.ts';
import { publishScriptKeyChanged } from '../licensing/script-key-events.ts';
import { findRedemptionKeyById } from '../redemption/redemption.store.ts';
import { insertAuditLog } from '../security/security.store.ts';
import { deleteKeyAddressesOfKey } from './key-sharing.store.ts';
import { generateScriptKey } from './script-key.ts';
import {
  deactivateScriptKeyById,
  deleteScriptKeyById,
  findScriptKeyById,
  insertScriptKey,
  listScriptKeys,
  toggleScriptKeyActiveById,
} from './script-keys.store.ts';

export async function listScriptKeysForAdmin(ctx: AppContext): Promise<ScriptKeyListResponse> {
  const scriptKeys = await listScriptKeys(ctx.db);
  return { scriptKeys, count: scriptKeys.length, timestamp: new Date(ctx.now()).toISOString() };
}

/**
 * Creates a key with a fresh random value. A premium_24h key without an expiry gets 24 hours; the
 * license key and redemption code it names must exist, and a code can back only one key.
 */
export async function createScriptKey(
  ctx: AppContext,
  input: z.output<typeof CreateScriptKeySchema>,
  client: AdminClient,
): Promise<ScriptKey> {
  const now = ctx.now();
  let expiresAt = futureExpiry(input.expiresAt, now, SCRIPT_KEY_TEXTS.expiresInPast);
  if (expiresAt === null && input.scriptType === 'premium_24h') expiresAt = now + PREMIUM_24H_MS;
  const notes = input.notes?.trim() || null;
  const licenseKeyId = input.licenseKeyId ?? null;
  const redemptionKeyId = input.redemptionKeyId ?? null;
  const scriptKey = generateScriptKey();
  let created: ScriptKey;
  try {
    created = await ctx.db.transaction().execute(async (trx) => {
      if (licenseKeyId !== null && !(await findLicenseKeyById(trx, licenseKeyId, now))) {
        throw badRequest(SCRIPT_KEY_TEXTS.licenseKeyNotFound);
      }
      if (redemptionKeyId !== null) {
        const code = await findRedemptionKeyById(trx, redemptionKeyId);
        if (!code) throw badRequest(SCRIPT_KEY_TEXTS.redemptionKeyNotFound);
        if (code.scriptKeyId !== null) throw conflict(SCRIPT_KEY_TEXTS.redemptionKeyTaken);
      }
      const id = await insertScriptKey(
        trx,
        {
          scriptKey,
          scriptType: input.scriptType,
          isActive: input.isActive,
          maxHardwareBindings: input.maxHardwareBindings,
          expiresAt,
          licenseKeyId,
          redemptionKeyId,
          notes,
        },
        now,
      );
      await insertAuditLog(
        trx,
        {
          eventType: 'script_key_created',
          success: true,
          licenseKey: scriptKey,
          ipAddress: client.ip,
          details: {
            id,
            scriptType: input.scriptType,
            isActive: input.isActive,
            maxHardwareBindings: input.maxHardwareBindings,
            expiresAt: isoOrNull(expiresAt),
            licenseKeyId,
            redemptionKeyId,
          },
        },
        now,
      );
      const created = await findScriptKeyById(trx, id);
      if (!created) throw new Error(`script key ${id} vanished after insert`);
      return created;
    });
  } catch (error) {
    // The check above passed but a concurrent create (or a redemption) linked the code first: the
    // unique redemption_key_id column refused this one. (The key itself has 256 random bits.)
    if (isUniqueViolation(error)) throw conflict(SCRIPT_KEY_TEXTS.redemptionKeyTaken);
    throw error;
  }
  await announceLicensingChanged(ctx, 'script_key');
  return created;
}

/**
 * Switches a key on or off; the loaders drop their cached copy before this returns. Switched on, the
 * key's key-sharing count starts afresh (else KEY_SHARING_AUTO_DISABLE would switch it off again at
 * its next use).
 */
export async function toggleScriptKey(
  ctx: AppContext,
  id: number,
  client: AdminClient,
): Promise<ScriptKeyToggleResponse> {
  const now = ctx.now();
  const scriptKey = await ctx.db.transaction().execute(async (trx) => {
    if (!(await toggleScriptKeyActiveById(trx, id))) throw notFound(SCRIPT_KEY_TEXTS.notFound);
    const toggled = await findScriptKeyById(trx, id);
    if (!toggled) throw new Error(`script key ${id} vanished while toggling`);
    if (toggled.isActive === 1) await deleteKeyAddressesOfKey(trx, id);
    await insertAuditLog(
      trx,
      {
        eventType: 'script_key_status_changed',
        success: true,
        licenseKey: toggled.scriptKey,
        ipAddress: client.ip,
        details: { id, isActive: toggled.isActive },
      },
      now,
    );
    return toggled;
  });
  await announceScriptKeyChanged(ctx, scriptKey.scriptKey);
  await announceLicensingChanged(ctx, 'script_key');
  const message = scriptKey.isActive === 1 ? SCRIPT_KEY_TEXTS.activated : SCRIPT_KEY_TEXTS.deactivated;
  return { message, scriptKey };
}

/**
 * Switches a key off if it is on, never back on (unlike the toggle), so an automated action may
 * repeat it safely (the AI health recommendations' Implement). Audited with `reason` when it switched
 * the key off. Returns the key as it is now (undefined when there is none) and whether this call did.
 */
export async function switchOffScriptKey(
  ctx: AppContext,
  id: number,
  client: AdminClient,
  reason: string,
): Promise<{ scriptKey: ScriptKey | undefined; switchedOff: boolean }> {
  const now = ctx.now();
  const result = await ctx.db.transaction().execute(async (trx) => {
    const switchedOff = await deactivateScriptKeyById(trx, id);
    const scriptKey = await findScriptKeyById(trx, id);
    if (switchedOff && scriptKey) {
      await insertAuditLog(
        trx,
        {
          eventType: 'script_key_status_changed',
          success: true,
          licenseKey: scriptKey.scriptKey,
          ipAddress: client.ip,
          details: { id, isActive: 0, reason },
        },
        now,
      );
    }
    return { scriptKey, switchedOff };
  });
  if (result.switchedOff && result.scriptKey) {
    await announceScriptKeyChanged(ctx, result.scriptKey.scriptKey);
    await announceLicensingChanged(ctx, 'script_key');
  }
  return result;
}

/** Deletes a key with its bindings and nonces; the loaders stop serving it before this returns. */
export async function deleteScriptKey(ctx: AppContext, id: number, client: AdminClient): Promise<void> {
  const now = ctx.now();
  const deleted = await ctx.db.transaction().execute(async (trx) => {
    const existing = await findScriptKeyById(trx, id);
    if (!existing || !(await deleteScriptKeyById(trx, id))) throw notFound(SCRIPT_KEY_TEXTS.notFound);
    await insertAuditLog(
      trx,
      {
        eventType: 'script_key_deleted',
        success: true,
        licenseKey: existing.scriptKey,
        ipAddress: client.ip,
        details: { id, scriptType: existing.scriptType, activeBindings: existing.activeBindings },
      },
      now,
    );
    return existing;
  });
  await announceScriptKeyChanged(ctx, deleted.scriptKey);
  await announceLicensingChanged(ctx, 'script_key');
}

/**
 * Tells every loader to drop its cached copy of the key. Only after the commit: a loader that
 * reloads earlier would cache the old row again. The bus never rejects (server/realtime/bus.ts): an
 * instance Redis did not reach drops every key when the bus resyncs.
 */
export function announceScriptKeyChanged(ctx: AppContext, scriptKey: string): Promise<void> {
  return publishScriptKeyChanged(ctx, scriptKey);
}
