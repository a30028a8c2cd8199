import type { Selectable } from 'kysely';
import {
  type DeviceInfo,
  DeviceInfoSchema,
  type HardwareBinding,
} from '../../../common/hardware-bindings.ts';
import type { LicenseKeyType } from '../../../common/licensing.ts';
import type { ScriptKeyType } from '../../../common/script-keys.ts';
import type { Db } from '../../db/index.ts';
import { isoOrNull } from '../../db/times.ts';
import type { HardwareBindingsTable } from './bindings.table.ts';

/** A binding with the key it belongs to: a license key or a script key (either may be gone). */
export type BindingRow = Selectable<HardwareBindingsTable> & {
  license_key: string | null;
  license_key_type: LicenseKeyType | null;
  script_key: string | null;
  script_key_type: ScriptKeyType | null;
};

/**
 * The stored device description, field by field: a field that is not the short text it should be
 * (or is blank) is left out and the others kept, so one odd value does not hide the rest; null when
 * there is none or it is not a JSON object.
 */
function parseDeviceInfo(text: string | null): DeviceInfo | null {
  if (text === null) return null;
  let stored: unknown;
  try {
    stored = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return null;
  const info: DeviceInfo = {};
  for (const field of Object.keys(DeviceInfoSchema.shape) as (keyof DeviceInfo)[]) {
    const value = DeviceInfoSchema.shape[field].safeParse((stored as Record<string, unknown>)[field]);
    if (value.success && value.data?.trim()) info[field] = value.data.trim();
  }
  return info;
}

export function bindingRowToBinding(row: BindingRow): HardwareBinding {
  let licenseKey: HardwareBinding['licenseKey'] = null;
  // Each pair comes from one left join: both null when that key is gone.
  if (row.license_key !== null && row.license_key_type !== null) {
    licenseKey = { licenseKey: row.license_key, keyType: row.license_key_type };
  } else if (row.script_key !== null && row.script_key_type !== null) {
    licenseKey = { licenseKey: row.script_key, keyType: row.script_key_type };
  }
  return {
    id: row.id,
    hardwareId: row.hardware_id,
    status: row.status,
    firstBindDate: new Date(row.first_bind_date).toISOString(),
    lastUsedDate: isoOrNull(row.last_used_date),
    deviceInfo: parseDeviceInfo(row.device_info),
    licenseKey,
  };
}

function selectBindings(db: Db) {
  return db
    .selectFrom('hardware_bindings')
    .leftJoin('license_keys', 'license_keys.id', 'hardware_bindings.license_key_id')
    .leftJoin('script_keys', 'script_keys.id', 'hardware_bindings.script_key_id')
    .selectAll('hardware_bindings')
    .select([
      'license_keys.license_key',
      'license_keys.key_type as license_key_type',
      'script_keys.script_key',
      'script_keys.script_type as script_key_type',
    ]);
}

/** Every binding of every key, newest first. */
export async function listHardwareBindings(db: Db): Promise<HardwareBinding[]> {
  const rows = await selectBindings(db)
    .orderBy('hardware_bindings.first_bind_date', 'desc')
    .orderBy('hardware_bindings.id', 'desc')
    .execute();
  return rows.map(bindingRowToBinding);
}

export async function findBindingRowById(db: Db, id: number): Promise<BindingRow | undefined> {
  return selectBindings(db).where('hardware_bindings.id', '=', id).executeTakeFirst();
}

/** Revokes the binding unless it is revoked already; returns whether this call revoked it. */
export async function revokeBindingById(db: Db, id: number): Promise<boolean> {
  const result = await db
    .updateTable('hardware_bindings')
    .set({ status: 'REVOKED' })
    .where('id', '=', id)
    .where('status', '=', 'ACTIVE')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A device bound to a script key, as the loader needs it. */
export interface ScriptKeyBindingRow {
  id: number;
  hardware_id: string;
  status: string;
}

/** Every device bound to the key, revoked ones included (the loader refuses those by name). */
export async function listScriptKeyBindings(db: Db, scriptKeyId: number): Promise<ScriptKeyBindingRow[]> {
  return db
    .selectFrom('hardware_bindings')
    .select(['id', 'hardware_id', 'status'])
    .where('script_key_id', '=', scriptKeyId)
    .execute();
}

export async function findScriptKeyBinding(
  db: Db,
  scriptKeyId: number,
  hardwareId: string,
): Promise<ScriptKeyBindingRow | undefined> {
  return db
    .selectFrom('hardware_bindings')
    .select(['id', 'hardware_id', 'status'])
    .where('script_key_id', '=', scriptKeyId)
    .where('hardware_id', '=', hardwareId)
    .executeTakeFirst();
}

export async function countActiveScriptKeyBindings(db: Db, scriptKeyId: number): Promise<number> {
  const row = await db
    .selectFrom('hardware_bindings')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('script_key_id', '=', scriptKeyId)
    .where('status', '=', 'ACTIVE')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Binds the device ACTIVE; returns the binding's id. The unique (key, device) index refuses a second row. */
export async function insertScriptKeyBinding(
  db: Db,
  binding: { scriptKeyId: number; hardwareId: string; deviceInfo: DeviceInfo | null },
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('hardware_bindings')
    .values({
      license_key_id: null,
      script_key_id: binding.scriptKeyId,
      hardware_id: binding.hardwareId,
      status: 'ACTIVE',
      device_info: binding.deviceInfo ? JSON.stringify(binding.deviceInfo) : null,
      first_bind_date: now,
      last_used_date: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
