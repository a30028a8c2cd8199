import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.ts';
import { acquireLease, releaseLease } from '../../db/leases.ts';
import { backoffMs } from '../notifications/rate-limits.ts';
import { type DiscordRest, DiscordRestError } from './discord-rest.ts';
import type { DiscordSettings } from './discord-rest-types.ts';
import { explainDiscordError } from './discord-rest-words.ts';
import {
  claimRoleGrant,
  findRoleGrant,
  finishRoleGrant,
  listDueRoleGrants,
  listLiveRoleGrants,
  listRoleGrants,
  type RoleGrant,
  type RoleGrantRow,
  roleGrantRowToRoleGrant,
  unwantRoleGrant,
  wantRoleGrant,
} from './role-sync.store.ts';

/*
 * The premium role follows the key: a sweep compares who should hold the guild's premium role (the
 * users linked to an active, unexpired premium-type key, as `holders` says) with the grants, queues
 * the adds and removals, and makes each with the bot token. The instance holding the
 * 'discord-role-sync' lease sweeps; each change is claimed before Discord is called, so even a
 * link's immediate add racing a sweep on another instance changes a role once. A failed change is
 * tried again with backoff and shown with its error on the screen.
 */

export const ROLE_SYNC_LEASE = 'discord-role-sync';
/** How often the lease holder sweeps (an expired key loses the role within about this long). */
export const ROLE_SYNC_INTERVAL_MS = 60_000;
/** Changes made per round. */
const BATCH = 50;
/** A claim outlives a call (5 s) and its 429 waits. */
const CLAIM_MS = 60_000;
/** A user not in the server yet (Unknown Member) is asked about again this much later. */
const NOT_A_MEMBER_RETRY_MS = 60 * 60_000;

export interface RoleSyncOptions {
  db: Db;
  rest: DiscordRest;
  settings: () => DiscordSettings | Promise<DiscordSettings>;
  /** Discord user ids linked to an active, unexpired premium-type key at `now`. */
  holders: (now: number) => Promise<Iterable<string>>;
  now: () => number;
  log?: FastifyBaseLogger;
  random?: () => number;
}

export interface RoleSyncSummary {
  /** Not configured (no token, guild or premium role): nothing done. */
  skipped: boolean;
  added: number;
  removed: number;
  failed: number;
}

export interface RoleSync {
  /** One round: queue what changed and make the changes due. Tests call it; the loop calls it under the lease. */
  sweep(): Promise<RoleSyncSummary>;
  /** A key was just linked to this user: give the role now (null when the role is not configured). */
  grantNow(discordUserId: string): Promise<RoleGrant | null>;
  /** Grants for the screen (of these users only when given). */
  list(discordUserIds?: string[]): Promise<RoleGrant[]>;
  /** Sweeps every `intervalMs` (ROLE_SYNC_INTERVAL_MS) while this instance holds the lease. */
  start(options: { intervalMs: number; instanceId: string }): void;
  /** Ends the loop after the round in flight and gives the lease up. */
  stop(): Promise<void>;
}

type Configured = DiscordSettings & { botToken: string; guildId: string; premiumRoleId: string };

function configured(s: DiscordSettings): s is Configured {
  return Boolean(s.botToken && s.guildId && s.premiumRoleId);
}

export function createRoleSync(options: RoleSyncOptions): RoleSync {
  const { db, rest, now } = options;

  /** Makes one claimed change. 'stop': Discord refuses the bot itself, the round ends. */
  const apply = async (row: RoleGrantRow): Promise<'done' | 'failed' | 'stop' | 'skipped'> => {
    const claimed = await claimRoleGrant(db, row.id, now(), now() + CLAIM_MS);
    if (!claimed) return 'skipped';
    const action = claimed.action;
    const reason = action === 'add' ? 'Scanline: premium key linked' : 'Scanline: premium key ended';
    try {
      if (action === 'add')
        await rest.addMemberRole(claimed.guild_id, claimed.discord_user_id, claimed.role_id, reason);
      else await rest.removeMemberRole(claimed.guild_id, claimed.discord_user_id, claimed.role_id, reason);
      const state = action === 'add' ? 'granted' : 'removed';
      await finishRoleGrant(db, claimed, { state, attempts: 0, last_error: null }, now());
      return 'done';
    } catch (error) {
      const code = error instanceof DiscordRestError ? error.code : 0;
      if (action === 'remove' && code === 10007) {
        // Gone from the server: the role went with them.
        await finishRoleGrant(db, claimed, { state: 'removed', attempts: 0, last_error: null }, now());
        return 'done';
      }
      const attempts = Number(claimed.attempts) + 1;
      const status = error instanceof DiscordRestError ? error.status : 0;
      let delay = Math.max(1_000, backoffMs(attempts, options.random));
      if (error instanceof DiscordRestError && error.retryAfterMs > 0) delay = error.retryAfterMs;
      if (code === 10007) delay = NOT_A_MEMBER_RETRY_MS;
      const last_error = explainDiscordError(error);
      await finishRoleGrant(
        db,
        claimed,
        { state: 'failed', attempts, last_error, next_attempt_at: now() + delay },
        now(),
      );
      options.log?.warn(
        { userId: claimed.discord_user_id, action, error: last_error },
        'discord: role change failed',
      );
      // 401/403/429 count toward Discord's ban, and the next change would get the same answer.
      return status === 401 || status === 403 || status === 429 ? 'stop' : 'failed';
    }
  };

  const sweep = async (): Promise<RoleSyncSummary> => {
    const summary: RoleSyncSummary = { skipped: false, added: 0, removed: 0, failed: 0 };
    const settings = await options.settings();
    if (!configured(settings)) return { ...summary, skipped: true };
    const { guildId, premiumRoleId } = settings;
    const wanted = new Set(await options.holders(now()));
    const live = await listLiveRoleGrants(db, guildId, premiumRoleId);
    const current = new Map(
      live
        .filter((r) => r.guild_id === guildId && r.role_id === premiumRoleId)
        .map((r) => [r.discord_user_id, r]),
    );
    for (const userId of wanted) {
      const row = current.get(userId);
      const leaving =
        row &&
        (row.state === 'removed' ||
          row.state === 'pending_remove' ||
          (row.state === 'failed' && row.action === 'remove'));
      if (!row || leaving) await wantRoleGrant(db, userId, guildId, premiumRoleId, now());
    }
    for (const row of live) {
      const holding =
        row.state === 'granted' ||
        row.state === 'pending_add' ||
        (row.state === 'failed' && row.action === 'add');
      const stillWanted =
        row.guild_id === guildId && row.role_id === premiumRoleId && wanted.has(row.discord_user_id);
      if (holding && !stillWanted) await unwantRoleGrant(db, row, now());
    }
    for (const row of await listDueRoleGrants(db, now(), BATCH)) {
      const action = row.action;
      const outcome = await apply(row);
      if (outcome === 'done') summary[action === 'add' ? 'added' : 'removed'] += 1;
      if (outcome === 'failed' || outcome === 'stop') summary.failed += 1;
      if (outcome === 'stop') break;
    }
    return summary;
  };

  const grantNow = async (discordUserId: string): Promise<RoleGrant | null> => {
    const settings = await options.settings();
    if (!configured(settings)) return null;
    await wantRoleGrant(db, discordUserId, settings.guildId, settings.premiumRoleId, now());
    const row = await findRoleGrant(db, discordUserId, settings.guildId, settings.premiumRoleId);
    if (row && row.state === 'pending_add') await apply(row);
    const after = await findRoleGrant(db, discordUserId, settings.guildId, settings.premiumRoleId);
    return after ? roleGrantRowToRoleGrant(after) : null;
  };

  let running = false;
  let loop: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;

  return {
    sweep,
    grantNow,
    list: async (ids) => (await listRoleGrants(db, ids)).map(roleGrantRowToRoleGrant),
    start({ intervalMs, instanceId }) {
      if (running) return;
      running = true;
      const ttl = intervalMs * 2 + 30_000;
      let holding = false;
      const pause = () =>
        new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, intervalMs);
        });
      loop = (async () => {
        while (running) {
          try {
            // Without a bot token, guild and role there is nothing to sync: the lease stays free.
            if (!configured(await options.settings())) {
              if (holding) await releaseLease(db, ROLE_SYNC_LEASE, instanceId);
              holding = false;
              if (running) await pause();
              continue;
            }
            holding = await acquireLease(db, ROLE_SYNC_LEASE, instanceId, now(), ttl);
            if (holding) {
              const s = await sweep();
              if (s.added + s.removed + s.failed > 0) options.log?.info(s, 'discord: premium roles synced');
            }
          } catch (error) {
            options.log?.error({ err: error }, 'discord: role sync round failed');
          }
          if (running) await pause();
        }
        if (holding) await releaseLease(db, ROLE_SYNC_LEASE, instanceId).catch(() => {});
      })();
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      wake?.();
      await loop;
    },
  };
}
