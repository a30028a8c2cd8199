import {
  BINDING_TEXTS,
  type HardwareBindingListResponse,
  type RevokeBindingResponse,
} from '../../../common/hardware-bindings.ts';
import type { AppContext } from '../../context.ts';
import { conflict, notFound } from '../../http-error.ts';
import { listResetsSince } from '../key-status/key-status.store.ts';
import type { AdminClient } from '../licensing/licensing.service.ts';
import { announceLicensingChanged } from '../licensing/licensing-events.ts';
import { announceScriptKeyChanged } from '../script-keys/script-keys.service.ts';
import { insertAuditLog } from '../security/security.store.ts';
import {
  bindingRowToBinding,
  findBindingRowById,
  listHardwareBindings,
  revokeBindingById,
} from './bindings.store.ts';

/** The history's reach: device resets of the last 30 days, at most this many. */
const RESET_HISTORY_MS = 30 * 24 * 60 * 60 * 1000;
const RESET_HISTORY_LIMIT = 500;

export async function listBindingsForAdmin(ctx: AppContext): Promise<HardwareBindingListResponse> {
  const now = ctx.now();
  const [bindings, resets] = await Promise.all([
    listHardwareBindings(ctx.db),
    listResetsSince(ctx.db, now - RESET_HISTORY_MS, RESET_HISTORY_LIMIT),
  ]);
  return { bindings, resets, count: bindings.length, timestamp: new Date(now).toISOString() };
}

/**
 * Revokes a device's binding: the device can no longer use the key until it is bound again. A second
 * revoke answers 409. Loaders drop their cached copy of a script key's bindings before this returns.
 */
export async function revokeBinding(
  ctx: AppContext,
  id: number,
  client: AdminClient,
): Promise<RevokeBindingResponse> {
  const now = ctx.now();
  const row = await ctx.db.transaction().execute(async (trx) => {
    // The conditional update is the guard: of two concurrent revokes exactly one changes the row.
    if (!(await revokeBindingById(trx, id))) {
      const existing = await findBindingRowById(trx, id);
      throw existing ? conflict(BINDING_TEXTS.alreadyRevoked) : notFound(BINDING_TEXTS.notFound);
    }
    const revoked = await findBindingRowById(trx, id);
    if (!revoked) throw new Error(`hardware binding ${id} vanished while revoking`);
    await insertAuditLog(
      trx,
      {
        eventType: 'binding_revoked',
        success: true,
        licenseKey: revoked.license_key ?? revoked.script_key,
        ipAddress: client.ip,
        hardwareId: revoked.hardware_id,
        details: {
          bindingId: id,
          licenseKeyId: revoked.license_key_id,
          scriptKeyId: revoked.script_key_id,
        },
      },
      now,
    );
    return revoked;
  });
  if (row.script_key !== null) await announceScriptKeyChanged(ctx, row.script_key);
  await announceLicensingChanged(ctx, 'hardware_binding');
  return { success: true, binding: bindingRowToBinding(row) };
}
