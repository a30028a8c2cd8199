import type { TestApp } from './helper.ts';

/**
 * Rows the API cannot make yet (devices bind through the loader, which comes with the licensing
 * work), written straight into the test app's database.
 */
export function insertHardwareBinding(
  t: Pick<TestApp, 'ctx' | 'clock'>,
  licenseKeyId: number,
  hardwareId: string,
  status = 'ACTIVE',
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
