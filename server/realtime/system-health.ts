import { sql } from 'kysely';
import { DEFAULT_TOTAL_BOTS, type SystemHealthPayload } from '../../common/realtime.ts';
import type { AppContext } from '../context.ts';

/** A database that has not answered `select 1` in this long counts as down. */
const DATABASE_CHECK_TIMEOUT_MS = 2000;

export interface FleetCounts {
  totalBots: number;
  activeBots: number;
}

/**
 * Bot counts for system_health. No bot reports yet, so the spec's default fleet of 70 with none
 * active; the fleet feature replaces this with counts from its scanner table.
 */
export async function readFleetCounts(_ctx: AppContext): Promise<FleetCounts> {
  return { totalBots: DEFAULT_TOTAL_BOTS, activeBots: 0 };
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

/** The system_health payload: database reachability, fleet counts and this instance's dashboards. */
export async function readSystemHealth(
  ctx: AppContext,
  connectedClients: number,
): Promise<SystemHealthPayload> {
  const [healthy, fleet] = await Promise.all([databaseAnswers(ctx), readFleetCounts(ctx)]);
  return {
    status: healthy ? 'healthy' : 'degraded',
    connectedClients,
    healthScore: healthy ? 100 : 0,
    networkHealth: fleet.totalBots > 0 ? Math.round((fleet.activeBots / fleet.totalBots) * 100) : 0,
    totalBots: fleet.totalBots,
    activeBots: fleet.activeBots,
  };
}
