import { REDEMPTION_TEXTS } from '../../../common/redemption.ts';
import type { RedeemRequest, RedeemResponse, RenewResponse } from '../../../common/script-access.ts';
import type { AppContext } from '../../context.ts';
import { conflict, HttpError, notFound } from '../../http-error.ts';
import { insertScriptKeyBinding } from '../bindings/bindings.store.ts';
import { announceLicensingChanged } from '../licensing/licensing-events.ts';
import {
  findRedemptionCodeRow,
  markRedemptionCodeRedeemed,
  type RedemptionCodeRow,
} from '../redemption/redemption.store.ts';
import { looksLikeLicenseKey } from '../script-keys/license-resolution.ts';
import { generateScriptKey } from '../script-keys/script-key.ts';
import { insertScriptKey } from '../script-keys/script-keys.store.ts';
import { insertAuditLog } from '../security/security.store.ts';
import { redeemLicenseKey } from './license-redeem.ts';
import { auditRedeemConflict, isRedeemConflict, RedemptionConflict } from './redeem-conflict.ts';
import { renewKey } from './renew.service.ts';

const HOUR_MS = 60 * 60 * 1000;

/** The code as typed (any case), if it can be redeemed now: 404 unknown, 409 spent, 410 expired. */
async function findRedeemableCode(ctx: AppContext, given: string): Promise<RedemptionCodeRow> {
  const found = await findRedemptionCodeRow(ctx.db, given.trim().toUpperCase());
  if (!found) throw notFound(REDEMPTION_TEXTS.invalidCode);
  if (found.is_redeemed === 1) throw conflict(REDEMPTION_TEXTS.alreadyRedeemed);
  if (found.expires_at !== null && found.expires_at <= ctx.now())
    throw new HttpError(410, REDEMPTION_TEXTS.expired);
  return found;
}

/** Who redeemed, for the audit log. */
export interface ScriptUserClient {
  ip: string;
}

/**
 * Turns an available code into a script key of the code's type, valid `validityDuration` hours, with
 * the code's device limit, already bound to the redeeming device. One transaction: the conditional
 * update from is_redeemed 0 to 1 is the guard, so of simultaneous redemptions exactly one makes a
 * key; the others get 409 and a transaction_conflict audit row (written after their rollback).
 */
export async function redeemCode(
  ctx: AppContext,
  input: RedeemRequest,
  client: ScriptUserClient,
): Promise<RedeemResponse | RenewResponse> {
  // A license key in the redeem box is the buyer's key already: its script key, this device bound.
  if (input.key === undefined && input.hwid !== undefined && looksLikeLicenseKey(input.code))
    return redeemLicenseKey(ctx, input.code, input.hwid);
  const found = await findRedeemableCode(ctx, input.code);
  if (input.key !== undefined) return renewKey(ctx, found, input.key, { ...client, hwid: input.hwid });
  // The schema asks for hwid whenever key is absent; Discord's /redeem has no device (the loader
  // binds the first one), so there a key is made with none bound.
  const hwid = input.hwid;
  const now = ctx.now();

  const scriptType = found.key_type;
  const scriptKey = generateScriptKey();
  const expiresAt = now + found.validity_duration * HOUR_MS;
  try {
    await ctx.db.transaction().execute(async (trx) => {
      if (!(await markRedemptionCodeRedeemed(trx, found.id, now))) throw new RedemptionConflict();
      const scriptKeyId = await insertScriptKey(
        trx,
        {
          scriptKey,
          scriptType,
          isActive: 1,
          maxHardwareBindings: found.max_hardware_bindings,
          expiresAt,
          licenseKeyId: null,
          redemptionKeyId: found.id,
          notes: null,
        },
        now,
      );
      if (hwid !== undefined) {
        await insertScriptKeyBinding(
          trx,
          { scriptKeyId, hardwareId: hwid, deviceInfo: input.device ?? null },
          now,
        );
      }
      const audit = { licenseKey: scriptKey, ipAddress: client.ip, hardwareId: hwid ?? null };
      await insertAuditLog(
        trx,
        {
          eventType: 'code_redeemed',
          success: true,
          ...audit,
          details: {
            redemptionKeyId: found.id,
            scriptKeyId,
            keyType: scriptType,
            validityHours: found.validity_duration,
          },
        },
        now,
      );
      if (hwid === undefined) return;
      await insertAuditLog(
        trx,
        {
          eventType: 'binding_attempt',
          success: true,
          ...audit,
          details: { scriptKeyId, activeBindings: 1, maxBindings: found.max_hardware_bindings },
        },
        now,
      );
    });
  } catch (error) {
    // PostgreSQL may also settle the race by failing the loser's transaction outright.
    if (!isRedeemConflict(error)) throw error;
    await auditRedeemConflict(ctx, found.id, client.ip, hwid);
  }
  await announceLicensingChanged(ctx, 'redemption_code');
  return {
    success: true,
    scriptKey,
    scriptType,
    expiresAt: new Date(expiresAt).toISOString(),
    maxHardwareBindings: found.max_hardware_bindings,
  };
}
