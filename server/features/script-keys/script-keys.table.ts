import type { Generated } from 'kysely';

export interface ScriptKeysTable {
  id: Generated<number>;
  script_key: string;
  /** FREE | PREMIUM | VIP | premium_24h */
  script_type: string;
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
}

/** Single-use challenge nonces: consumed by a conditional update, so a replay on any instance fails. */
export interface ChallengeNoncesTable {
  nonce: string;
  script_key_id: number;
  hardware_id: string;
  expires_at: number;
  used_at: number | null;
}
