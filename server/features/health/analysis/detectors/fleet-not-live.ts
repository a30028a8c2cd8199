import type { FindingSeverity } from '../../../../../common/ai-health.ts';
import { type FleetCondition, fleetHeadline } from '../../../../../common/fleet-condition.ts';
import type { AppContext } from '../../../../context.ts';
import { type AnalysisWindow, clockTime, type FindingCandidate } from './detector.ts';

/**
 * fleet_not_live: the fleet's one state (common/fleet-condition.ts, the rule every screen uses) when
 * it is not live. A state, not events: it holds while the state lasts and closes itself at the first
 * run that finds the fleet live again. The subject is the state, so a fleet going from down to
 * degraded closes the one and opens the other, each with its own severity:
 * - down (no bot heard from): CRITICAL, nothing is being scanned;
 * - degraded (fewer than FLEET_DEGRADED_BELOW_PERCENT heard from): ERROR;
 * - stopped (the emergency stop): WARNING, naming who stopped it; the operator chose it, but nothing
 *   is scanned until someone resumes.
 */
type NotLive = Exclude<FleetCondition['state'], 'live'>;

export const FLEET_SEVERITY: Record<NotLive, FindingSeverity> = {
  down: 'CRITICAL',
  degraded: 'ERROR',
  stopped: 'WARNING',
};

/** The headline's clock in findings: the UTC time, as every finding's text gives it. */
const utcClock = (iso: string) => clockTime(Date.parse(iso));

function describe(
  c: FleetCondition,
  state: NotLive,
): Pick<FindingCandidate, 'description' | 'suggestedAction'> {
  switch (state) {
    case 'down':
      return {
        description:
          c.expectedBots === 0
            ? 'No scanner bot has ever reported: nothing is being scanned and the discovery feed is empty.'
            : `None of the ${c.expectedBots} known bots has reported within the inactivity limit: nothing is being scanned and the discovery feed is silent.`,
        suggestedAction:
          "Check the host that runs the bots (or the simulator) and the bots' network: are they running, and can they reach this server?",
      };
    case 'degraded':
      return {
        description: `${c.heardBots} of ${c.expectedBots} known bots reported within the inactivity limit (${c.heardPercent}%): the rest are silent and scan nothing.`,
        suggestedAction:
          'Live Monitoring shows which bots went inactive: restart them, and check their host and network.',
      };
    case 'stopped':
      return {
        description:
          `The emergency stop is on${c.stoppedBy ? `, set by ${c.stoppedBy}` : ''}` +
          `${c.stoppedAt ? ` at ${utcClock(c.stoppedAt)}` : ''}${c.stoppedReason ? ` (${c.stoppedReason})` : ''}: ` +
          'the bots are told to stop scanning until it is resumed.',
        suggestedAction:
          'Once the cause is dealt with, Emergency Resume on Live Configuration restarts the scanning.',
      };
  }
}

/** The finding for the fleet's condition, or null while it is live. */
export function fleetFinding(c: FleetCondition, now: number, seenAt: number): FindingCandidate | null {
  if (c.state === 'live') return null;
  return {
    analysisType: 'fleet_not_live',
    subject: c.state,
    severity: FLEET_SEVERITY[c.state],
    title: fleetHeadline(c, now, utcClock),
    ...describe(c, c.state),
    occurrences: 1,
    lastSeenAt: seenAt,
    isState: true,
    evidence: {
      kind: 'fleet_not_live',
      state: c.state,
      expectedBots: c.expectedBots,
      heardBots: c.heardBots,
      lastHeardFrom: c.lastHeardFrom,
      stoppedBy: c.stoppedBy,
    },
  };
}

export async function detectFleetNotLive(
  ctx: AppContext,
  window: AnalysisWindow,
): Promise<FindingCandidate[]> {
  const finding = fleetFinding(await ctx.services.fleetCondition(), ctx.now(), window.to);
  return finding ? [finding] : [];
}
