/** The administrator's secret, stored only as a scrypt hash (one row, id 1). */
export interface AdminCredentialsTable {
  id: number;
  secret_hash: string;
  created_at: number;
}

/** A logged-in admin browser. `id` is the SHA-256 of the cookie token, so a leaked table row is no session. */
export interface AdminSessionsTable {
  id: string;
  created_at: number;
  expires_at: number;
  ip_address: string | null;
  user_agent: string | null;
}
