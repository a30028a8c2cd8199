import { z } from 'zod';

/*
 * The fleet's one state (docs/rules-fleet.md, "Fleet states"): what the sidebar badge, the Live
 * Monitoring banner, the dashboard, the landing page's LIVE badge, the AI report and operator alerts
 * all say, from one rule, so no screen can call a dead fleet healthy.
 */

export const FLEET_STATES = ['live', 'degraded', 'down', 'stopped'] as const;
export type FleetStateName = (typeof FLEET_STATES)[number];

/** Below this share of the expected bots heard from, the fleet is degraded (FLEET_DEGRADED_BELOW_PERCENT). */
export const DEFAULT_FLEET_DEGRADED_BELOW_PERCENT = 80;

export const FleetConditionSchema = z.object({
  /**
   * stopped: the emergency stop is on; down: no expected bot heard from within
   * FLEET_INACTIVE_AFTER_MS (or none has ever reported); degraded: some, but fewer than
   * FLEET_DEGRADED_BELOW_PERCENT of them; live: the rest.
   */
  state: z.enum(FLEET_STATES),
  /** The bots the fleet knows (those Live Monitoring lists): removing a retired bot stops expecting it. */
  expectedBots: z.number(),
  /** Of them, those heard from (any message) within FLEET_INACTIVE_AFTER_MS. */
  heardBots: z.number(),
  /** Whole percent of expected bots heard from (0 with none expected). */
  heardPercent: z.number(),
  /** When the fleet last heard from any bot (ISO), and which: null before the first report. */
  lastHeardAt: z.string().nullable(),
  lastHeardFrom: z.string().nullable(),
  /** While stopped: who stopped the network, why and when (ISO). */
  stoppedBy: z.string().nullable(),
  stoppedReason: z.string().nullable(),
  stoppedAt: z.string().nullable(),
});
export type FleetCondition = z.infer<typeof FleetConditionSchema>;

export interface FleetHearing {
  expectedBots: number;
  heardBots: number;
  lastHeardAt: number | null;
  lastHeardFrom: string | null;
}

export interface NetworkSwitch {
  stopped: boolean;
  changedBy: string | null;
  reason: string | null;
  changedAt: string | null;
}

/** The rule itself: what the fleet's hearing and the emergency switch make of the state. */
export function fleetConditionOf(
  hearing: FleetHearing,
  network: NetworkSwitch,
  degradedBelowPercent: number,
): FleetCondition {
  const { expectedBots, heardBots } = hearing;
  const heardPercent = expectedBots > 0 ? Math.floor((heardBots / expectedBots) * 100) : 0;
  const state: FleetStateName = network.stopped
    ? 'stopped'
    : heardBots === 0
      ? 'down'
      : heardPercent < degradedBelowPercent
        ? 'degraded'
        : 'live';
  return {
    state,
    expectedBots,
    heardBots,
    heardPercent,
    lastHeardAt: hearing.lastHeardAt === null ? null : new Date(hearing.lastHeardAt).toISOString(),
    lastHeardFrom: hearing.lastHeardFrom,
    stoppedBy: network.stopped ? network.changedBy : null,
    stoppedReason: network.stopped ? network.reason : null,
    stoppedAt: network.stopped ? network.changedAt : null,
  };
}

/** The badge's word for each state. */
export const FLEET_STATE_LABELS: Record<FleetStateName, string> = {
  live: 'LIVE',
  degraded: 'DEGRADED',
  down: 'DOWN',
  stopped: 'STOPPED',
};

/** "2 min", "45 s", "3 h": how long ago, in the banner's words. */
export function silenceOf(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.floor(hours / 24)} days`;
}

/**
 * One sentence saying the state in the operator's words, e.g. "No bot has reported for 2 min — last
 * heard 09:12 from ghost-07". `clock` formats the last-heard instant (the browser's local time on
 * screens, UTC in alerts).
 */
export function fleetHeadline(c: FleetCondition, now: number, clock: (iso: string) => string): string {
  const last =
    c.lastHeardAt === null ? '' : ` — last heard ${clock(c.lastHeardAt)} from ${c.lastHeardFrom ?? 'a bot'}`;
  switch (c.state) {
    case 'stopped':
      return `Emergency stop${c.stoppedBy ? ` by ${c.stoppedBy}` : ''}${c.stoppedReason ? `: ${c.stoppedReason}` : ''} — bots are told to stop scanning`;
    case 'down':
      if (c.lastHeardAt === null) return 'No bot has reported yet';
      return `No bot has reported for ${silenceOf(now - Date.parse(c.lastHeardAt))}${last}`;
    case 'degraded':
      return `Only ${c.heardBots} of ${c.expectedBots} bots reporting (${c.heardPercent}%)`;
    case 'live':
      return `${c.heardBots} of ${c.expectedBots} bots reporting`;
  }
}
