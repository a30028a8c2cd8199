import type { Generated } from 'kysely';

/** A token scanner bots may present. Only its SHA-256 is stored. */
export interface BotTokensTable {
  id: Generated<number>;
  token_hash: string;
  /** Where it came from: 'generated' on first start, or the admin's label. */
  label: string;
  created_at: number;
  revoked_at: number | null;
}
