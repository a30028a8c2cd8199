import type { Generated } from 'kysely';

export interface AuditLogsTable {
  id: Generated<number>;
  event_type: string;
  /** 1 success, 0 failure. */
  success: number;
  license_key: string | null;
  ip_address: string | null;
  hardware_id: string | null;
  timestamp: number;
  /** JSON object. */
  details: string;
}
