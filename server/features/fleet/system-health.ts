import { sql } from 'kysely';
import { INITIAL_NETWORK_HEALTH } from '../../../common/fleet.ts';
import type { FleetCondition } from '../../../common/fleet-condition.ts';
import { DEFAULT_TOTAL_BOTS, type SystemHealthPayload } from '../../../common/realtime.ts';
import type { AppContext } from '../../context.ts';

/** A database that has not answered `select 1` in this long counts as down. */
const DATABASE_CHECK_TIMEOUT_MS = 2000;

export interface FleetCounts {
  totalBots: number;
  activeBots: number;
  networkHealth: number;
}

/**
 * Bot counts for system_health, from the fleet's live scanners (spec section 4: active counts
 * active and scanning bots). Before any bot has reported: the spec's default fleet of 70, none
 * active, and the start value of network health (85).
 */
export async function readFleetCounts(ctx: AppContext): Promise<FleetCounts> {
  const { fleet } = ctx.services;
  if (fleet.state.scanners.size === 0) {
    return { totalBots: DEFAULT_TOTAL_BOTS, activeBots: 0, networkHealth: INITIAL_NETWORK_HEALTH };
  }
  const stats = fleet.state.networkStats(ctx.now());
  return { totalBots: stats.totalBots, activeBots: stats.activeBots, networkHealth: stats.networkHealth };
}

async function databaseAnswers(ctx: AppContext): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), DATABASE_CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([sql`select 1`.execute(ctx.db).then(() => true), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The system_health payload: database reachability, fleet counts and this instance's dashboards,
 * counted when the reads are done (a dashboard that connected meanwhile is in the count it is sent).
 */
export async function readSystemHealth(
  ctx: AppContext,
  connectedClients: () => number,
): Promise<SystemHealthPayload> {
  const [healthy, fleet, condition] = await Promise.all([
    databaseAnswers(ctx),
    readFleetCounts(ctx),
    ctx.services.fleetCondition().catch(() => null),
  ]);
  return {
    status: healthy ? 'healthy' : 'degraded',
    connectedClients: connectedClients(),
    healthScore: healthy ? 100 : 0,
    networkHealth: fleet.networkHealth,
    totalBots: fleet.totalBots,
    activeBots: fleet.activeBots,
    fleet: condition,
  };
}

declare module '../../context.ts' {
  interface AppServices {
    /** The fleet's one state, emergency switch included (the configuration feature's: it holds the switch). */
    fleetCondition: () => Promise<FleetCondition>;
  }
}
