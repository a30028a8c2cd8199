import type { PetDiscovery, ServerHopEvent } from '../../../common/fleet.ts';
import type { ScannerRecord } from './fleet-records.ts';

/** Bus channel carrying fleet changes between instances (each applies them to its own state). */
export const FLEET_CHANNEL = 'fleet';

/** A fleet change as it travels on the bus. */
export type BusFleetMessage =
  | { kind: 'hop'; hop: ServerHopEvent }
  | { kind: 'discovery'; discovery: PetDiscovery }
  | { kind: 'scanner'; scanner: ScannerRecord }
  | { kind: 'touch'; ghostId: string; at: number }
  | { kind: 'removed'; ghostId: string; at: number }
  | { kind: 'pruned'; before: number };
