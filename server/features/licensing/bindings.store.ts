import type { Selectable } from 'kysely';
import {
  type BindingStatus,
  type DeviceInfo,
  DeviceInfoSchema,
  type HardwareBinding,
} from '../../../common/hardware-bindings.ts';
import type { LicenseKeyType } from '../../../common/licensing.ts';
import type { ScriptKeyType } from '../../../common/script-keys.ts';
import type { Db } from '../../db/index.ts';
import { isoOrNull } from '../../db/times.ts';
import type { HardwareBindingsTable } from './licensing.table.ts';

/** A binding with the key it belongs to: a license key or a script key (either may be gone). */
export type BindingRow = Selectable<HardwareBindingsTable> & {
  license_key: string | null;
  license_key_type: string | null;
  script_key: string | null;
  script_key_type: string | null;
};

/** The stored device description, or null when there is none or it is not the JSON object it should be. */
function parseDeviceInfo(text: string | null): DeviceInfo | null {
  if (text === null) return null;
  try {
    const parsed = DeviceInfoSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function bindingRowToBinding(row: BindingRow): HardwareBinding {
  let licenseKey: HardwareBinding['licenseKey'] = null;
  if (row.license_key !== null) {
    licenseKey = { licenseKey: row.license_key, keyType: row.license_key_type as LicenseKeyType };
  } else if (row.script_key !== null) {
    licenseKey = { licenseKey: row.script_key, keyType: row.script_key_type as ScriptKeyType };
  }
  return {
    id: row.id,
    hardwareId: row.hardware_id,
    status: row.status as BindingStatus,
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
