import type { Generated } from 'kysely';
import type { LicenseKeyStatus, LicenseKeyType } from '../../../common/licensing.ts';

export interface LicenseKeysTable {
  id: Generated<number>;
  license_key: string;
  /** FREE | PREMIUM | VIP */
  key_type: LicenseKeyType;
  /** ACTIVE | REVOKED; EXPIRED is derived from expires_at. */
  status: LicenseKeyStatus;
  max_bindings: number;
  expires_at: number | null;
  notes: string | null;
  usage_count: Generated<number>;
  last_used: number | null;
  created_at: number;
  revoked_at: number | null;
  /** The script key this license key resolves to (created once, when the key is made or first presented). */
  script_key_id: number | null;
}

/** Uses of any key per UTC day ('YYYY-MM-DD'), so usage over a day, week or month is one indexed sum. */
export interface UsageDailyTable {
  day: string;
  key: string;
  uses: number;
}
