import type { BindingStatus, DeviceInfo } from '../../common/hardware-bindings.ts';
import type { ScriptKeyType } from '../../common/script-keys.ts';
import { generateScriptKey } from '../features/script-keys/script-key.ts';
import { insertScriptKey } from '../features/script-keys/script-keys.store.ts';
import type { TestApp } from './helper.ts';

/*
 * Rows the admin API does not make (devices bind through the loader or a redemption), written
 * straight into the test app's database.
 */

/** A device bound to a license key. */
export function insertHardwareBinding(
  t: Pick<TestApp, 'ctx' | 'clock'>,
  licenseKeyId: number,
  hardwareId: string,
  status: BindingStatus = 'ACTIVE',
) {
  return t.ctx.db
    .insertInto('hardware_bindings')
    .values({
      license_key_id: licenseKeyId,
      hardware_id: hardwareId,
      status,
      device_info: null,
      first_bind_date: t.clock.now(),
      last_used_date: null,
    })
    .execute();
}

/**
 * A device bound to a script key; `deviceInfo` is stored as given (a string goes in verbatim, so a
 * test can store text that is not JSON). Returns the binding's id.
 */
export async function insertScriptKeyBinding(
  t: Pick<TestApp, 'ctx' | 'clock'>,
  scriptKeyId: number,
  hardwareId: string,
  options: { status?: 'ACTIVE' | 'REVOKED'; deviceInfo?: DeviceInfo | string | null } = {},
): Promise<number> {
  const deviceInfo = options.deviceInfo ?? null;
  const row = await t.ctx.db
    .insertInto('hardware_bindings')
    .values({
      script_key_id: scriptKeyId,
      hardware_id: hardwareId,
      status: options.status ?? 'ACTIVE',
      device_info: typeof deviceInfo === 'string' ? deviceInfo : deviceInfo && JSON.stringify(deviceInfo),
      first_bind_date: t.clock.now(),
      last_used_date: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A script key created now (active PREMIUM, one device, no expiry unless given). */
export async function insertTestScriptKey(
  t: Pick<TestApp, 'ctx' | 'clock'>,
  options: {
    scriptType?: ScriptKeyType;
    isActive?: 0 | 1;
    maxHardwareBindings?: number;
    expiresAt?: number | null;
    redemptionKeyId?: number | null;
  } = {},
): Promise<{ id: number; scriptKey: string }> {
  const scriptKey = generateScriptKey();
  const id = await insertScriptKey(
    t.ctx.db,
    {
      scriptKey,
      scriptType: options.scriptType ?? 'PREMIUM',
      isActive: options.isActive ?? 1,
      maxHardwareBindings: options.maxHardwareBindings ?? 1,
      expiresAt: options.expiresAt ?? null,
      licenseKeyId: null,
      redemptionKeyId: options.redemptionKeyId ?? null,
      notes: null,
    },
    t.clock.now(),
  );
  return { id, scriptKey };
}
