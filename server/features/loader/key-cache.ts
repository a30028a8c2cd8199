import type { ScriptKeyType } from '../../../common/script-keys.ts';
import type { Db } from '../../db/index.ts';
import { listScriptKeyBindings } from '../bindings/bindings.store.ts';
import { listRemovedDevices } from '../key-status/removed-devices.store.ts';
import type { ScriptKeyRow } from '../script-keys/script-keys.store.ts';
import { findScriptKeyByKey } from '../script-keys/script-keys.store.ts';

/** A device bound to a cached key. */
export interface CachedBinding {
  id: number;
  /** false once revoked: the loader refuses the device by name. */
  active: boolean;
}

/**
 * A script key as the loader keeps it in memory: what every call checks, plus its devices. Expiry is
 * checked against the clock on every call, never cached as a verdict.
 */
export interface CachedScriptKey {
  id: number;
  scriptKey: string;
  scriptType: ScriptKeyType;
  isActive: boolean;
  /** Why it was switched off automatically (key sharing): the loader's refusal says it. */
  disabledReason: string | null;
  expiresAt: number | null;
  maxHardwareBindings: number;
  /** Hardware id -> binding. Bindings the loader creates are added here as they commit. */
  bindings: Map<string, CachedBinding>;
  /** Hardware id -> end of its cool-down: devices a reset removed, refused until then. */
  removed: Map<string, number>;
  /** The decision a served call returns, made once per key (a warm call allocates nothing). */
  granted: { kind: 'granted'; keyId: number; expiresAt: number | null };
}

export function toCachedScriptKey(
  row: ScriptKeyRow,
  bindings: { id: number; hardware_id: string; status: string }[],
  removed: { hardware_id: string; blocked_until: number }[] = [],
): CachedScriptKey {
  return {
    id: row.id,
    scriptKey: row.script_key,
    scriptType: row.script_type,
    isActive: row.is_active === 1,
    disabledReason: row.disabled_reason,
    expiresAt: row.expires_at,
    maxHardwareBindings: row.max_hardware_bindings,
    bindings: new Map(bindings.map((b) => [b.hardware_id, { id: b.id, active: b.status === 'ACTIVE' }])),
    removed: new Map(removed.map((device) => [device.hardware_id, device.blocked_until])),
    granted: { kind: 'granted', keyId: row.id, expiresAt: row.expires_at },
  };
}

/** The key and its devices from the database; undefined for a key that does not exist. */
export async function readScriptKey(
  db: Db,
  scriptKey: string,
  now: number,
): Promise<CachedScriptKey | undefined> {
  const row = await findScriptKeyByKey(db, scriptKey);
  if (!row) return undefined;
  const [bindings, removed] = await Promise.all([
    listScriptKeyBindings(db, row.id),
    listRemovedDevices(db, row.id, now),
  ]);
  return toCachedScriptKey(row, bindings, removed);
}
