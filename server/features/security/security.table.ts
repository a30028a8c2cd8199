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
  /**
   * The caller as per-IP limits count it (IPv4 address, or IPv6 /64): set on admin logins, which the
   * failed-login lockout counts by it. Null on other rows.
   */
  client: string | null;
  /** JSON object. */
  details: string;
}
