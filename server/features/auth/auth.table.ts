/** The administrator's secret, stored only as a scrypt hash (one row, id 1). */
export interface AdminCredentialsTable {
  id: number;
  secret_hash: string;
  /**
   * A generated secret's 32-bit keyed digest (secret.ts secretCheckOf), so a wrong guess is turned away
   * before scrypt; null until the admin first signs in on a secret stored before it existed.
   */
  secret_check: string | null;
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

/**
 * The failed-login lockout, one row per client (IPv4 address or IPv6 /64): `attempts` counts the
 * failed logins and those being checked in the window that began at `window_started_at`.
 */
export interface AdminLoginAttemptsTable {
  client: string;
  window_started_at: number;
  attempts: number;
}
