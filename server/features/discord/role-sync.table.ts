import type { Generated } from 'kysely';

/**
 * pending_add / pending_remove: a change to make; granted / removed: Discord took it; failed: the
 * last try of `action` failed and is retried at next_attempt_at.
 */
export type RoleGrantState = 'pending_add' | 'granted' | 'pending_remove' | 'removed' | 'failed';

/** The premium role one Discord user should (or should no longer) hold in a guild. */
export interface DiscordRoleGrantsTable {
  id: Generated<number>;
  discord_user_id: string;
  guild_id: string;
  role_id: string;
  state: RoleGrantState;
  /** What a pending or failed row is to do. */
  action: 'add' | 'remove';
  /** Failed tries of the current change. */
  attempts: number;
  last_error: string | null;
  next_attempt_at: number;
  /** Held by whoever is calling Discord for it until then (0: free). */
  claimed_until: number;
  created_at: number;
  updated_at: number;
}
