import type { Generated } from 'kysely';
import type { RedemptionKeyType } from '../../../common/redemption.ts';

export interface RedemptionKeysTable {
  id: Generated<number>;
  redemption_code: string;
  /** FREE | PREMIUM | VIP */
  key_type: RedemptionKeyType;
  /** 1 once redeemed; the conditional update from 0 to 1 is what makes redemption single-use. */
  is_redeemed: Generated<number>;
  redeemed_at: number | null;
  /** The code can no longer be redeemed after this; null: never expires. */
  expires_at: number | null;
  created_at: number;
  max_hardware_bindings: number;
  /** Hours the resulting script key stays valid after redemption. */
  validity_duration: number;
  notes: string | null;
}

/** A code redeemed onto a running key (a renewal): its hours were added to that key. */
export interface KeyRenewalsTable {
  id: Generated<number>;
  script_key_id: number;
  /** Unique: one code renews one key, once. */
  redemption_key_id: number;
  hours: number;
  renewed_at: number;
}
