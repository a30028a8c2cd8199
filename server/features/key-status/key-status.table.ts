import type { Generated } from 'kysely';

/** One device reset of a script key (My key, or an admin). */
export interface HwidResetsTable {
  id: Generated<number>;
  script_key_id: number;
  reset_at: number;
  /** buyer | admin */
  reset_by: string;
  ip_address: string | null;
  /** Devices the reset removed. */
  removed: number;
  /** 1: spent an admin-granted extra reset; 0: the weekly budget. */
  used_extra: number;
}

/** A device a reset removed from a key: it cannot bind that key again before blocked_until. */
export interface RemovedDevicesTable {
  script_key_id: number;
  hardware_id: string;
  blocked_until: number;
}
