import type {
  FindingSeverity,
  Recommendation,
  RecommendationPriority,
} from '../../../../common/ai-health.ts';
import { LOGIN_FAILURE_LIMIT, LOGIN_FAILURE_WINDOW_MS } from '../../../../common/auth.ts';
import type { SlotUsage } from '../../../../common/system.ts';
import { QUARANTINE_BOTS, QUARANTINE_WINDOW_MS } from '../../server-pool/server-pool.service.ts';
import { type FindingEvidence, listNames, MINUTE_MS, percent } from './detectors/detector.ts';
import { SLOTS } from './detectors/slots-nearly-full.ts';

/** How long a recommendation stands: past it, the state it was derived from may have moved. */
export const RECOMMENDATION_VALID_MS = 24 * 60 * MINUTE_MS;

/** The built-in profile the fleet's slow-down recommendations apply (seeded by the configuration migration). */
export const SLOW_PROFILE = { id: 'stealth', name: 'STEALTH' } as const;

const PRIORITY_OF: Record<FindingSeverity, RecommendationPriority> = {
  CRITICAL: 'CRITICAL',
  ERROR: 'HIGH',
  WARNING: 'MEDIUM',
  INFO: 'LOW',
};

export const ACTION_LABELS = {
  none: 'Marks it implemented; the change itself is yours to make',
  applyProfile: (botIds: string[]) =>
    `Applies the ${SLOW_PROFILE.name} profile to ${listNames(botIds, 10)} (a configuration push, audited)`,
  revokeKey: (maskedKey: string) =>
    `Switches script key ${maskedKey} off: the loader then refuses it on every device (audited)`,
} as const;

/** What a recommendation says and does, before it is stored. */
export type RecommendationDraft = Omit<
  Recommendation,
  'id' | 'createdAt' | 'validUntil' | 'isImplemented' | 'analysisId' | 'resolvedAt' | 'resolution'
>;

/** The finding a recommendation is derived from. */
export interface FindingForRecommendation {
  severity: FindingSeverity;
  title: string;
  description: string;
  evidence: FindingEvidence;
}

/** The current state a recommendation is checked against (only what its finding needs is read). */
export interface RecommendationState {
  /** Whether the script key is still on (undefined: it no longer exists). */
  scriptKeyActive(id: number): Promise<boolean | undefined>;
  slotUsage(): Promise<SlotUsage>;
}

const NO_ACTION = { action: { kind: 'none' } as const, actionLabel: ACTION_LABELS.none };

function slowDown(
  botIds: string[],
): Pick<RecommendationDraft, 'action' | 'actionLabel' | 'implementationNotes'> {
  return {
    action: { kind: 'apply_profile', profileId: SLOW_PROFILE.id, botIds },
    actionLabel: ACTION_LABELS.applyProfile(botIds),
    implementationNotes:
      `Implement pushes the ${SLOW_PROFILE.name} profile (hops every 15 s, stealth mode, small batches) to ` +
      `these bots through Live Configuration, recorded in its History; roll it back from there once the game lets them through again.`,
  };
}

/**
 * The recommendation for an open finding, checked against the state now; null when the finding
 * needs none any more (the key is already off, the slots were raised).
 */
export async function recommendationFor(
  finding: FindingForRecommendation,
  state: RecommendationState,
): Promise<RecommendationDraft | null> {
  const priority = PRIORITY_OF[finding.severity];
  const e = finding.evidence;
  const from = { priority, description: finding.description };
  switch (e.kind) {
    case 'hop_failure_spike':
      if (e.rateLimitedShare >= 0.5 && e.failedBots.length > 0) {
        return {
          ...from,
          category: 'fleet',
          title: `Apply ${SLOW_PROFILE.name} to ${listNames(e.failedBots, 3)}: rate-limited by the game`,
          reasoning: `Hop failures jumped to ${percent(e.failureRate)} against a usual ${percent(e.baselineRate)}, and ${percent(e.rateLimitedShare)} of them were the game's rate limits: the bots teleport too often.`,
          estimatedImpact:
            'Hop failures back near the baseline within minutes; these bots scan fewer servers while slowed.',
          ...slowDown(e.failedBots),
        };
      }
      return {
        ...from,
        category: 'fleet',
        title: `Check the server pool: hop failures at ${percent(e.failureRate)} (usually ${percent(e.baselineRate)})`,
        reasoning:
          'Failures across the fleet at once, not from one bot, point at the servers the pool hands out (full, shut down) or at the game itself.',
        estimatedImpact: 'The fleet scans at full speed again once the pool holds working servers.',
        implementationNotes: `Server Pool Monitor: look at available versus deleted servers and add fresh ones; the bots that failed most: ${listNames(e.failedBots)}.`,
        ...NO_ACTION,
      };
    case 'failing_bot':
      if (e.rateLimitedShare >= 0.5) {
        return {
          ...from,
          category: 'fleet',
          title: `Apply ${SLOW_PROFILE.name} to ${e.botId}: rate-limited by the game`,
          reasoning: `${percent(e.rateLimitedShare)} of ${e.botId}'s failed hops are the game's rate limits, while the fleet's usual failure rate is ${percent(e.baselineRate)}.`,
          estimatedImpact: `${e.botId} hops successfully again, more slowly.`,
          ...slowDown([e.botId]),
        };
      }
      return {
        ...from,
        category: 'fleet',
        title: `Restart ${e.botId}: ${percent(e.failureRate)} of its hops fail`,
        reasoning: `The rest of the fleet fails ${percent(e.baselineRate)} of its hops, so the fault is with this bot (its game client, account or network), not the servers.`,
        estimatedImpact: `${e.botId} scans again instead of failing one hop in ${Math.max(1, Math.round(1 / e.failureRate))}.`,
        implementationNotes: `Live Monitoring shows ${e.botId}'s hops and errors; restart it, or move it to another account or network.`,
        ...NO_ACTION,
      };
    case 'failing_server':
      return {
        ...from,
        category: 'fleet',
        title: `Take server ${e.jobId} out of the pool`,
        reasoning: `${percent(e.failureRate)} of the hops to it fail against ${percent(e.baselineRate)} across the fleet: the bots waste attempts on it.`,
        estimatedImpact: 'Fewer failed hops; the bots get working servers first.',
        implementationNotes: `Server Pool Monitor: the pool quarantines a server by itself once ${QUARANTINE_BOTS} different bots fail on it within ${QUARANTINE_WINDOW_MS / MINUTE_MS} minutes; a bot releasing it with outcome 'error' deletes it.`,
        ...NO_ACTION,
      };
    case 'login_burst':
      return {
        ...from,
        category: 'security',
        title: `Block ${e.client}: ${e.attempts} failed admin logins`,
        reasoning:
          'Failed logins in a burst from one address are someone guessing the admin secret, unless it was you.',
        estimatedImpact: 'Stops the guessing before it reaches a weak secret.',
        implementationNotes: `Block the address at your proxy or firewall. The lockout already refuses it after ${LOGIN_FAILURE_LIMIT} failures within ${LOGIN_FAILURE_WINDOW_MS / MINUTE_MS} minutes; a long random ADMIN_SECRET makes guessing hopeless.`,
        ...NO_ACTION,
      };
    case 'rate_limit_burst':
      return {
        ...from,
        category: 'security',
        title: `Look into ${e.identifier}: ${e.refused} calls refused`,
        reasoning: `The rate limits (${e.limitTypes.join(', ')}) refused that many calls in minutes: a script polling far too fast, or someone probing.`,
        estimatedImpact: 'Less load and a cleaner audit log; a customer with a broken script gets helped.',
        implementationNotes:
          'Security & Analytics lists its calls; block it at your proxy if it is not a customer, or raise the RATE_LIMIT_* setting if the limit is too tight for honest use.',
        ...NO_ACTION,
      };
    case 'shared_key': {
      const active = await state.scriptKeyActive(e.scriptKeyId);
      if (active !== true) return null;
      return {
        ...from,
        category: 'security',
        title: `Revoke key ${e.maskedKey}: ${e.devices} devices tried it in an hour`,
        reasoning:
          "A key bound to its owner's devices that many other devices try to load has been shared or leaked.",
        estimatedImpact: 'The leaked copies stop working; the owner needs a new key.',
        implementationNotes:
          'Implement switches the key off through Script Keys (audited); the loader refuses it at once on every instance. Issue the owner a new key.',
        action: { kind: 'revoke_script_key', scriptKeyId: String(e.scriptKeyId) },
        actionLabel: ACTION_LABELS.revokeKey(e.maskedKey),
      };
    }
    case 'client_errors':
      return {
        ...from,
        category: 'reliability',
        title: `Fix "${e.name}: ${e.message}"`.slice(0, 200),
        reasoning: `The same error reached the admin screens' error boundaries ${e.reports} times in an hour.`,
        estimatedImpact: 'A screen that stops failing for the administrator.',
        implementationNotes: 'The error reports hold the page URL, browser and stack of each occurrence.',
        ...NO_ACTION,
      };
    case 'slots_nearly_full': {
      const usage = await state.slotUsage();
      if (usage.utilizationPercentage < SLOTS.nearlyFullPercent) return null;
      return {
        ...from,
        category: 'capacity',
        title: `Raise total slots: ${usage.usedSlots}/${usage.totalSlots} used`,
        reasoning: `${usage.availableSlots} ${usage.availableSlots === 1 ? 'slot is' : 'slots are'} left for new premium buyers; the landing and purchase pages show what is left.`,
        estimatedImpact: 'New buyers can keep buying premium access.',
        implementationNotes:
          'System Configuration → Total slots; the landing and purchase pages show the new availability at once.',
        ...NO_ACTION,
      };
    }
    case 'fleet_not_live':
      return { ...from, category: 'fleet', ...fleetAdvice(e), ...NO_ACTION };
    case 'config_not_acknowledged':
      return {
        ...from,
        category: 'fleet',
        title: `Restart ${e.botId}: it does not acknowledge its configuration`,
        reasoning: `${e.botId} holds a socket but left ${e.unacknowledged} configuration ${e.unacknowledged === 1 ? 'push' : 'pushes'} unanswered: it runs with settings other than the ones shown.`,
        estimatedImpact: `${e.botId} runs the configuration the console shows.`,
        implementationNotes: `Restart ${e.botId} and check its logs; it is sent its latest configuration when it says hello again.`,
        ...NO_ACTION,
      };
  }
}

/** What to do about a fleet that is not live: where to look, by its state. */
function fleetAdvice(
  e: Extract<FindingEvidence, { kind: 'fleet_not_live' }>,
): Pick<RecommendationDraft, 'title' | 'reasoning' | 'estimatedImpact' | 'implementationNotes'> {
  switch (e.state) {
    case 'down':
      return {
        title: "Check the bots' host and network: no bot is reporting",
        reasoning:
          e.expectedBots === 0
            ? 'No bot has ever reported to this server: they are not started, or cannot reach it.'
            : `All ${e.expectedBots} known bots went silent (the last heard from: ${e.lastHeardFrom ?? 'unknown'}): a cause they share, such as the host or simulator that runs them or their network, rather than one bot.`,
        estimatedImpact:
          'Scanning, the discovery feed and the live screens resume once the bots report again.',
        implementationNotes:
          "On the bots' host: are the bots (or `npm run simulate`) running, do they have this server's URL and their credentials, and can they reach it? Live Monitoring shows each bot's last activity.",
      };
    case 'degraded':
      return {
        title: `Restart the silent bots: only ${e.heardBots} of ${e.expectedBots} reporting`,
        reasoning:
          'Some bots report and others do not, so the server and the shared network work: the silent ones have stopped or lost their connection.',
        estimatedImpact: 'The fleet scans at full strength again.',
        implementationNotes:
          'Live Monitoring lists the inactive bots: restart them or check their host; a retired bot removed there is no longer expected.',
      };
    case 'stopped':
      return {
        title: `Resume the network once it is safe: emergency stop by ${e.stoppedBy ?? 'the administrator'}`,
        reasoning:
          'The emergency stop tells every bot to stop scanning; nothing is discovered until it is resumed.',
        estimatedImpact: 'The bots scan again and the discovery feed fills.',
        implementationNotes:
          'Live Configuration → Emergency Resume, once the reason for the stop is dealt with.',
      };
  }
}
