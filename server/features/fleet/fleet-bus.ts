import type { PetDiscovery, ServerHopEvent } from '../../../common/fleet.ts';
import type { HopCount, ScannerRecord } from './fleet-records.ts';

export type { HopCount } from './fleet-records.ts';

/*
 * What crosses between instances (docs/scale-out.md, "What crosses between instances"). Each instance
 * applies its own bots' messages in full; the others get what every instance needs on FLEET_CHANNEL
 * (finds one by one, everything else as one `changes` per instance every CHANGES_EVERY_MS), and each
 * hop one by one on FLEET_HOPS_CHANNEL only while they have a dashboard to show it to.
 */

/** Every instance, always: finds, bots' latest state and hop counts, removals, retention sweeps. */
export const FLEET_CHANNEL = 'fleet';
/** Each hop as it happens: heard only by an instance that has dashboards (fleet-watch.ts). */
export const FLEET_HOPS_CHANNEL = 'fleet:hops';

/** A fleet change as it travels on FLEET_CHANNEL; `from` is the instance that sent it. */
export type BusFleetMessage =
  | { kind: 'discovery'; discovery: PetDiscovery }
  | {
      kind: 'changes';
      from: string;
      /** Its bots as they stand now, those that changed since its last `changes`. */
      scanners: ScannerRecord[];
      /** Its hops since its last `changes`, counted. */
      hops: HopCount[];
      /** The highest stream position it has handed out (no instance hands it out again). */
      head: number;
    }
  | { kind: 'removed'; ghostId: string; at: number }
  | { kind: 'pruned'; before: number };

/** A hop as it travels on FLEET_HOPS_CHANNEL. */
export interface BusHopMessage {
  kind: 'hop';
  hop: ServerHopEvent;
  from?: string;
}

const MINUTE_MS = 60_000;

/** A hop as the other instances count it. */
export function hopCountOf(hop: ServerHopEvent): HopCount {
  const at = Date.parse(hop.timestamp);
  return {
    minute: at - (at % MINUTE_MS),
    botId: hop.botId,
    reason: hop.hopReason,
    success: hop.success,
    hops: 1,
    latencySum: hop.latencyMs,
  };
}
