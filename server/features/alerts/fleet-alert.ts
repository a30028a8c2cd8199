import { type FleetCondition, fleetHeadline } from '../../../common/fleet-condition.ts';
import type { AlertSeverity } from '../../../common/notifications.ts';
import type { AppContext } from '../../context.ts';
import { findEmergencyState } from '../configuration/emergency.store.ts';
import { type AlertCheck, type AlertWords, fleetHoldMs } from './alert-rules.ts';

/*
 * The fleet's alerts, from its one state (common/fleet-condition.ts, read through
 * ctx.services.fleetCondition()): down, degraded and back with hysteresis; the emergency stop and
 * resume at once, saying who and why.
 */

/** An instant as alerts write it: 09:12 UTC (a destination's readers are anywhere). */
export const utcClock = (iso: string) => `${iso.slice(11, 16)} UTC`;

const SEVERITY: Record<FleetCondition['state'], AlertSeverity> = {
  live: 'ok',
  degraded: 'warning',
  down: 'critical',
  stopped: 'critical',
};

const TITLES: Record<Exclude<FleetCondition['state'], 'stopped'>, string> = {
  down: 'Fleet down',
  degraded: 'Fleet degraded',
  live: 'Fleet back',
};

/** What the alert of `condition`, after `previous` was alerted, says. */
export async function fleetAlertWords(
  ctx: AppContext,
  condition: FleetCondition,
  previous: string,
  now: number,
): Promise<AlertWords> {
  const headline = fleetHeadline(condition, now, utcClock);
  const severity = SEVERITY[condition.state];
  if (condition.state === 'stopped') {
    return {
      title: condition.stoppedBy ? `Emergency stop by ${condition.stoppedBy}` : 'Emergency stop',
      message: headline,
      severity,
    };
  }
  if (previous === 'stopped') {
    // The condition says who stopped it only while stopped: the switch's row says who resumed.
    const resumed = await findEmergencyState(ctx.db);
    const why = resumed.reason ? `${resumed.reason} — ` : '';
    return {
      title: resumed.changedBy ? `Network resumed by ${resumed.changedBy}` : 'Network resumed',
      message: `${why}${headline}`,
      severity,
    };
  }
  return { title: TITLES[condition.state], message: headline, severity };
}

export function fleetAlertCheck(ctx: AppContext): AlertCheck {
  const raiseMs = ctx.config.ALERT_RAISE_AFTER_SECONDS * 1000;
  const clearMs = ctx.config.ALERT_CLEAR_AFTER_SECONDS * 1000;
  return {
    kind: 'fleet',
    sink: 'outbox',
    goodState: 'live',
    holdMs: (alerted, observed) => fleetHoldMs(alerted, observed, raiseMs, clearMs),
    async observe(alerted) {
      const condition = await ctx.services.fleetCondition();
      // No bot known (a new install, every bot removed): nothing is expected, so nothing is down;
      // but a resume is told even then (as down: no bot reports).
      if (condition.state !== 'stopped' && condition.expectedBots === 0 && alerted !== 'stopped') {
        return null;
      }
      const now = ctx.now();
      return {
        state: condition.state,
        words: (previous) => fleetAlertWords(ctx, condition, previous, now),
      };
    },
  };
}
