import { type FleetCondition, fleetConditionOf } from '../../../common/fleet-condition.ts';
import type { AppContext } from '../../context.ts';
import { findEmergencyState } from './emergency.store.ts';

/**
 * The fleet's one state (common/fleet-condition.ts) as this instance sees it now: the fleet's
 * hearing (a feature below) and the emergency switch (this feature's), read from the database so
 * a stop made on another instance counts at once.
 */
export async function readFleetCondition(ctx: AppContext): Promise<FleetCondition> {
  const network = await findEmergencyState(ctx.db);
  return fleetConditionOf(
    ctx.services.fleet.state.hearing(ctx.now()),
    network,
    ctx.config.FLEET_DEGRADED_BELOW_PERCENT,
  );
}
