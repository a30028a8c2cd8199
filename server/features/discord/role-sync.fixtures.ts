import type { Db } from '../../db/index.ts';
import { createDiscordRest } from './discord-rest.ts';
import type { DiscordSettings } from './discord-rest-types.ts';
import { createRoleSync, type RoleSync } from './role-sync.ts';

/*
 * Role sync tests' stand-ins for what the interactions feature wires: Discord users linked to script
 * keys (a map here, the discord_links table there) and the holders query over script_keys.
 */

const PREMIUM_TYPES = ['PREMIUM', 'VIP', 'premium_24h'] as const;

/** A script key of `type` expiring at `expiresAt`; its id. */
export async function insertKey(
  db: Db,
  type: (typeof PREMIUM_TYPES)[number] | 'FREE',
  expiresAt: number | null,
) {
  const row = await db
    .insertInto('script_keys')
    .values({
      script_key: `SK-${Math.random().toString(36).slice(2, 14).toUpperCase()}`,
      script_type: type,
      is_active: 1,
      max_hardware_bindings: 1,
      created_at: 0,
      expires_at: expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Discord users whose linked key is an active, unexpired premium-type key at `now`. */
export function holdersOf(db: Db, links: Map<string, number>) {
  return async (now: number): Promise<string[]> => {
    if (links.size === 0) return [];
    const keys = await db
      .selectFrom('script_keys')
      .select('id')
      .where('id', 'in', [...links.values()])
      .where('is_active', '=', 1)
      .where('script_type', 'in', [...PREMIUM_TYPES])
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .execute();
    const live = new Set(keys.map((k) => k.id));
    return [...links].filter(([, keyId]) => live.has(keyId)).map(([user]) => user);
  };
}

export function roleSyncFor(
  db: Db,
  settings: () => DiscordSettings,
  links: Map<string, number>,
  now: () => number,
): RoleSync {
  const rest = createDiscordRest({ settings });
  // random 1: the longest backoff, so a test that moves the clock past BACKOFF_MAX_MS is sure to retry.
  return createRoleSync({ db, rest, settings, holders: holdersOf(db, links), now, random: () => 1 });
}

/** Polls (short real waits: the loops run on real timers) until `check` holds. */
export async function eventually(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
