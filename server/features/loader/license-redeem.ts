import { REDEMPTION_TEXTS } from '../../../common/redemption.ts';
import type { RedeemResponse } from '../../../common/script-access.ts';
import type { AppContext } from '../../context.ts';
import { HttpError, notFound } from '../../http-error.ts';
import { resolveLicenseKey } from '../script-keys/license-resolution.ts';
import { announceScriptKeyChanged } from '../script-keys/script-keys.service.ts';
import { bindDeviceToScriptKey } from './device-binding.ts';
import { ACCESS_TEXTS, inactiveKeyText } from './loader-access.ts';

/**
 * A license key typed into the universal script's redeem box (`POST /api/script/redeem {code:
 * 'SCAN-…', hwid}`): it is no code, but the buyer's key, so the answer is what a redemption gives,
 * the script key it resolves to, with the device bound as the loader would bind it (limit, revoked
 * and removed devices refused the loader's way). Nothing is spent.
 */
export async function redeemLicenseKey(
  ctx: AppContext,
  licenseKey: string,
  hwid: string,
): Promise<RedeemResponse> {
  const row = await resolveLicenseKey(ctx, licenseKey);
  if (!row) throw notFound(REDEMPTION_TEXTS.invalidCode);
  const now = ctx.now();
  const outcome = await bindDeviceToScriptKey(ctx, row.id, hwid, now);
  switch (outcome.kind) {
    case 'key-changed': {
      const current = outcome.row;
      if (!current) throw notFound(REDEMPTION_TEXTS.invalidCode);
      if (current.expires_at !== null && current.expires_at <= now)
        throw new HttpError(403, ACCESS_TEXTS.expiredKey);
      throw new HttpError(403, inactiveKeyText(current.disabled_reason));
    }
    case 'removed':
      throw new HttpError(403, ACCESS_TEXTS.removedDeviceUntil(new Date(outcome.until).toISOString()));
    case 'limit':
      throw new HttpError(403, ACCESS_TEXTS.deviceLimit(outcome.maxBindings));
    case 'known':
      if (!outcome.active) throw new HttpError(403, ACCESS_TEXTS.revokedDevice);
      break;
    case 'bound':
      // Loaders that cached the key read its devices again.
      await announceScriptKeyChanged(ctx, row.script_key);
      break;
  }
  return {
    success: true,
    scriptKey: row.script_key,
    scriptType: row.script_type,
    expiresAt: row.expires_at === null ? null : new Date(row.expires_at).toISOString(),
    maxHardwareBindings: row.max_hardware_bindings,
  };
}
