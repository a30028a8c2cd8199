import type { Generated } from 'kysely';
import type { ScriptKeyType } from '../../../common/script-keys.ts';

export interface ScriptKeysTable {
  id: Generated<number>;
  script_key: string;
  /** FREE | PREMIUM | VIP | premium_24h */
  script_type: ScriptKeyType;
  /** 1 active, 0 switched off by the admin. Expired is derived from expires_at. */
  is_active: number;
  max_hardware_bindings: number;
  usage_count: Generated<number>;
  last_used: number | null;
  created_at: number;
  expires_at: number | null;
  license_key_id: number | null;
  /** The code this key was redeemed from (unique: one code, one key). */
  redemption_key_id: number | null;
  notes: string | null;
  /** Device resets an admin granted beyond the weekly budget, not yet used. */
  extra_resets: Generated<number>;
  /** Why the key was switched off automatically (key sharing), shown to its buyer; null otherwise. */
  disabled_reason: string | null;
}
