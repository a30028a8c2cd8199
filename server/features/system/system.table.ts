/** Slot capacity and payment wallets (one row, id 1). */
export interface SystemConfigurationTable {
  id: number;
  total_slots: number;
  /** JSON map currency -> address. */
  payment_wallets: string;
  updated_at: number;
}
