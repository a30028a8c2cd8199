import type { Generated } from 'kysely';
import type { BindingStatus } from '../../../common/hardware-bindings.ts';

export interface HardwareBindingsTable {
  id: Generated<number>;
  /** Exactly one of license_key_id and script_key_id is set: the key this device is bound to. */
  license_key_id: number | null;
  script_key_id: number | null;
  hardware_id: string;
  /** ACTIVE | REVOKED */
  status: BindingStatus;
  /** JSON {deviceName, os, architecture, deviceType}. */
  device_info: string | null;
  first_bind_date: number;
  last_used_date: number | null;
}
