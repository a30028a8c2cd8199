import type { HealthReport } from '../../../../common/ai-health.ts';
import type { AppContext } from '../../../context.ts';
import { countPoolServers } from '../../server-pool/server-pool.store.ts';
import { oneDecimal } from './rounding.ts';

type FleetHealth = HealthReport['fleetHealth'];

/**
 * The fleet as this instance's live state holds it: bots by status (networkStats) and the share of
 * the last hour's hops that failed (the hop stats' sixty one-minute buckets). Memory only.
 */
export function measureBots(
  ctx: AppContext,
  now: number,
): Omit<FleetHealth, 'poolAvailability' | 'condition'> {
  const { fleet } = ctx.services;
  const network = fleet.state.networkStats(now);
  let succeeded = 0;
  let failed = 0;
  for (const minute of fleet.state.hopStats(now).lastHour) {
    succeeded += minute.hopsSucceeded;
    failed += minute.hopsFailed;
  }
  return {
    totalBots: network.totalBots,
    errorBots: network.errorBots,
    hopFailureRate: succeeded + failed > 0 ? oneDecimal((failed / (succeeded + failed)) * 100) : null,
  };
}

/** % of pool servers available, as the Server Pool Monitor counts it (over the servers not deleted). */
export async function measurePoolAvailability(ctx: AppContext): Promise<number | null> {
  const pool = await countPoolServers(ctx.db);
  return pool.total > 0 ? oneDecimal((pool.byStatus.available / pool.total) * 100) : null;
}
