/** An enrolled bot's own credential: only the SHA-256 of its botToken is stored. */
export interface BotCredentialsTable {
  ghost_id: string;
  token_hash: string;
  /** When it was (last) enrolled, epoch ms. */
  enrolled_at: number;
  enrolled_ip: string | null;
  /** When the credential was last presented (at most once a minute is written), epoch ms. */
  last_seen_at: number | null;
  last_ip: string | null;
  /** Set when the administrator revoked it: the credential is refused everywhere. */
  revoked_at: number | null;
}
