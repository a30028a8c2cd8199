import type { Generated } from 'kysely';

export interface LicenseKeysTable {
  id: Generated<number>;
  license_key: string;
  /** FREE | PREMIUM | VIP */
  key_type: string;
  /** ACTIVE | REVOKED; EXPIRED is derived from expires_at. */
  status: string;
  max_bindings: number;
  expires_at: number | null;
  notes: string | null;
  usage_count: Generated<number>;
  last_used: number | null;
  created_at: number;
  revoked_at: number | null;
}

export interface HardwareBindingsTable {
  id: Generated<number>;
  /** Exactly one of license_key_id and script_key_id is set: the key this device is bound to. */
  license_key_id: number | null;
  script_key_id: number | null;
  hardware_id: string;
  /** ACTIVE | REVOKED */
  status: string;
  /** JSON {deviceName, os, architecture, deviceType}. */
  device_info: string | null;
  first_bind_date: number;
  last_used_date: number | null;
}

/** Uses of any key per UTC day ('YYYY-MM-DD'), so usage over a day, week or month is one indexed sum. */
export interface UsageDailyTable {
  day: string;
  key: string;
  uses: number;
}
