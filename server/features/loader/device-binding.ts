import type { DeviceInfo } from '../../../common/hardware-bindings.ts';
import type { AppContext } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import {
  countActiveScriptKeyBindings,
  findScriptKeyBinding,
  insertScriptKeyBinding,
} from '../bindings/bindings.store.ts';
import { findRemovedDevice } from '../key-status/removed-devices.store.ts';
import type { ScriptKeyRow } from '../script-keys/script-keys.store.ts';
import { lockScriptKey } from '../script-keys/script-keys.store.ts';

/** What binding a device the loader had not seen with this key came to. */
export type BindOutcome =
  /** A new ACTIVE binding; `activeBindings` counts it. */
  | { kind: 'bound'; bindingId: number; activeBindings: number; maxBindings: number }
  /** The device was bound already (another request or instance bound it first, or it was revoked). */
  | { kind: 'known'; bindingId: number; active: boolean }
  /** A reset removed this device from the key: refused until its cool-down ends (`until`). */
  | { kind: 'removed'; until: number }
  /** The key has all the devices it may have. */
  | { kind: 'limit'; activeBindings: number; maxBindings: number }
  /** The key is gone, or no longer usable, since the caller read it: the row as it is now. */
  | { kind: 'key-changed'; row: ScriptKeyRow | undefined };

/**
 * Binds `hardwareId` to the script key if it has room: one transaction that serialises per key (the
 * key's row is locked on PostgreSQL; SQLite runs one write transaction at a time), then counts the
 * ACTIVE bindings and inserts. So 50 devices racing for a 3-device key leave exactly 3 bindings, on
 * one instance or several. The unique (key, device) index turns a same-device race into 'known'.
 */
export async function bindDeviceToScriptKey(
  ctx: AppContext,
  scriptKeyId: number,
  hardwareId: string,
  now: number,
  deviceInfo: DeviceInfo | null = null,
): Promise<BindOutcome> {
  try {
    return await ctx.db.transaction().execute(async (trx): Promise<BindOutcome> => {
      const row = await lockScriptKey(trx, ctx.dialect, scriptKeyId);
      if (!row) return { kind: 'key-changed', row };
      if (row.is_active !== 1 || (row.expires_at !== null && row.expires_at <= now)) {
        return { kind: 'key-changed', row };
      }
      const existing = await findScriptKeyBinding(trx, scriptKeyId, hardwareId);
      if (existing) return { kind: 'known', bindingId: existing.id, active: existing.status === 'ACTIVE' };
      // Read under the key's lock, so a reset committing meanwhile is seen (on any instance).
      const until = await findRemovedDevice(trx, scriptKeyId, hardwareId, now);
      if (until !== undefined) return { kind: 'removed', until };
      const active = await countActiveScriptKeyBindings(trx, scriptKeyId);
      if (active >= row.max_hardware_bindings) {
        return { kind: 'limit', activeBindings: active, maxBindings: row.max_hardware_bindings };
      }
      const bindingId = await insertScriptKeyBinding(trx, { scriptKeyId, hardwareId, deviceInfo }, now);
      return { kind: 'bound', bindingId, activeBindings: active + 1, maxBindings: row.max_hardware_bindings };
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const existing = await findScriptKeyBinding(ctx.db, scriptKeyId, hardwareId);
    if (!existing) throw error;
    return { kind: 'known', bindingId: existing.id, active: existing.status === 'ACTIVE' };
  }
}
