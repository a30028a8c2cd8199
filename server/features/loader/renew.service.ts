import { KEY_STATUS_TEXTS } from '../../../common/key-status.ts';
import { REDEMPTION_TEXTS, renewalFamily } from '../../../common/redemption.ts';
import type { RenewResponse } from '../../../common/script-access.ts';
import type { AppContext } from '../../context.ts';
import { conflict, HttpError, notFound } from '../../http-error.ts';
import { findKeyByAnything } from '../key-status/key-lookup.ts';
import { announceLicensingChanged } from '../licensing/licensing-events.ts';
import { markRedemptionCodeRedeemed, type RedemptionCodeRow } from '../redemption/redemption.store.ts';
import { announceScriptKeyChanged } from '../script-keys/script-keys.service.ts';
import { lockScriptKey } from '../script-keys/script-keys.store.ts';
import { insertAuditLog } from '../security/security.store.ts';
import { auditRedeemConflict, isRedeemConflict, RedemptionConflict } from './redeem-conflict.ts';

const HOUR_MS = 60 * 60 * 1000;

/**
 * Renewal: `POST /api/script/redeem {code, key}` adds the code's hours to the key (the running one,
 * or one that ran out: its time starts again from now), in one transaction with the code's spending,
 * so a code renews once and never also makes a key. The code's type family must be the key's
 * (premium_24h takes PREMIUM codes); the key keeps its device limit, raised to the code's if that is
 * higher; a switched-off key (403) or one that never expires (409) takes no code. Audited
 * code_redeemed with `details.renewal`; every instance's loader and feed read the key again.
 */
export async function renewKey(
  ctx: AppContext,
  code: RedemptionCodeRow,
  key: string,
  client: { ip: string; hwid: string | undefined },
): Promise<RenewResponse> {
  const target = await findKeyByAnything(ctx, key);
  if (!target) throw notFound(KEY_STATUS_TEXTS.notFound);
  const now = ctx.now();
  let renewed: { scriptKey: string; expiresAt: number };
  try {
    renewed = await ctx.db.transaction().execute(async (trx) => {
      const row = await lockScriptKey(trx, ctx.dialect, target.row.id);
      if (!row) throw notFound(KEY_STATUS_TEXTS.notFound);
      if (row.is_active !== 1) throw new HttpError(403, REDEMPTION_TEXTS.renewSwitchedOff);
      if (renewalFamily(row.script_type) !== renewalFamily(code.key_type))
        throw conflict(REDEMPTION_TEXTS.typeMismatch(code.key_type, row.script_type));
      if (row.expires_at === null) throw conflict(REDEMPTION_TEXTS.renewNeverExpires);
      if (!(await markRedemptionCodeRedeemed(trx, code.id, now))) throw new RedemptionConflict();
      const expiresAt = Math.max(now, row.expires_at) + code.validity_duration * HOUR_MS;
      const maxBindings = Math.max(row.max_hardware_bindings, code.max_hardware_bindings);
      await trx
        .updateTable('script_keys')
        .set({ expires_at: expiresAt, max_hardware_bindings: maxBindings })
        .where('id', '=', row.id)
        .execute();
      // A license key's own script key: the license key shows the same expiry and limit (one key).
      await trx
        .updateTable('license_keys')
        .set({ expires_at: expiresAt, max_bindings: maxBindings })
        .where('script_key_id', '=', row.id)
        .execute();
      await trx
        .insertInto('key_renewals')
        .values({
          script_key_id: row.id,
          redemption_key_id: code.id,
          hours: code.validity_duration,
          renewed_at: now,
        })
        .execute();
      await insertAuditLog(
        trx,
        {
          eventType: 'code_redeemed',
          success: true,
          licenseKey: row.script_key,
          ipAddress: client.ip,
          hardwareId: client.hwid ?? null,
          details: {
            renewal: true,
            redemptionKeyId: code.id,
            scriptKeyId: row.id,
            keyType: code.key_type,
            validityHours: code.validity_duration,
            expiresAt: new Date(expiresAt).toISOString(),
          },
        },
        now,
      );
      return { scriptKey: row.script_key, expiresAt };
    });
  } catch (error) {
    if (!isRedeemConflict(error)) throw error;
    return auditRedeemConflict(ctx, code.id, client.ip, client.hwid);
  }
  // Loaders and feeds hold the key's expiry in memory: every instance reads it again.
  await announceScriptKeyChanged(ctx, renewed.scriptKey);
  await announceLicensingChanged(ctx, 'redemption_code');
  return {
    extended: true,
    expiresAt: new Date(renewed.expiresAt).toISOString(),
    addedHours: code.validity_duration,
  };
}
