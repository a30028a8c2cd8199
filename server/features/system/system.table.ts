/** Slot capacity and payment wallets (one row, id 1). */
export interface SystemConfigurationTable {
  id: number;
  total_slots: number;
  /** JSON map currency -> address. */
  payment_wallets: string;
  updated_at: number;
  /** Device resets per script key per rolling 7 days; null: HWID_RESETS_PER_WEEK. */
  hwid_resets_per_week: number | null;
  /** Where buyers open a ticket (https); null: not set. */
  community_invite_url: string | null;
}
