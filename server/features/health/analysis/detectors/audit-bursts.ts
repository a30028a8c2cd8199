import { maskLicenseKey } from '../../../../../common/mask.ts';
import type { AppContext } from '../../../../context.ts';
import { RATE_LIMIT_HIT } from '../../../security/rate-limit-hits.store.ts';
import { type FailedAuditEvent, loadFailedAuditEvents } from '../evidence.store.ts';
import {
  type AnalysisWindow,
  clockTime,
  type FindingCandidate,
  groupBy,
  listNames,
  MINUTE_MS,
  plural,
  severityAt,
} from './detector.ts';
import { trailingBurst } from './trailing-burst.ts';

/**
 * login_burst: failed admin logins from one client (IPv4 address or IPv6 /64, as the lockout counts
 * them), with the attempts the lockout then refused, at least LOGIN_BURST.minAttempts within
 * LOGIN_BURST.spanMs: the lockout's own threshold, so a typo or two never fires.
 */
export const LOGIN_BURST = {
  spanMs: 15 * MINUTE_MS,
  minAttempts: 5,
  severity: { error: 20, critical: 100 },
} as const;

/**
 * rate_limit_burst: calls the rate limits refused for one identifier (an IP, IPv6 /64 or key), added
 * up by each hit row's `details.count`, at least RATE_LIMIT_BURST.minRefused within
 * RATE_LIMIT_BURST.spanMs. A hit row keeps counting until its rate-limit window ends, so rows are read
 * once their window is over (one RATE_LIMIT_WINDOW_MS later): each row is counted whole, once.
 */
export const RATE_LIMIT_BURST = {
  spanMs: 10 * MINUTE_MS,
  minRefused: 100,
  severity: { error: 1000, critical: 10_000 },
} as const;

/** The lockout's refusals: hit rows it writes, one per refused login (no count). */
const LOCKOUT_LIMIT_TYPE = 'admin_login';

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const countOf = (event: FailedAuditEvent) => {
  const count = event.details.count;
  return typeof count === 'number' && count > 0 ? count : 1;
};

/** One finding per client whose failed and locked-out logins made a burst in the window. */
export function loginBurstFindings(events: FailedAuditEvent[], window: AnalysisWindow): FindingCandidate[] {
  const isAttempt = (event: FailedAuditEvent) =>
    event.eventType === 'admin_login' ||
    (event.eventType === RATE_LIMIT_HIT && text(event.details.limitType) === LOCKOUT_LIMIT_TYPE);
  const byClient = groupBy(events, (e) => (isAttempt(e) ? (e.client ?? e.ipAddress) : null));
  return [...byClient].flatMap(([client, attempts]) => {
    const burst = trailingBurst(
      attempts.map((e) => ({ at: e.timestamp, weight: 1 })),
      window,
      LOGIN_BURST.spanMs,
      LOGIN_BURST.minAttempts,
      'sum',
    );
    if (!burst) return [];
    return [
      {
        analysisType: 'login_burst' as const,
        subject: client,
        severity: severityAt(burst.peak, LOGIN_BURST.severity),
        title: `Burst of failed admin logins from ${client}`,
        description:
          `${plural(burst.peak, 'failed or locked-out admin login')} from ${client} within ` +
          `${LOGIN_BURST.spanMs / MINUTE_MS} minutes (the last at ${clockTime(burst.lastAt)}).`,
        suggestedAction: `If that was not you, block ${client} at your proxy or firewall, and make sure ADMIN_SECRET is long and not a default.`,
        occurrences: burst.occurrences,
        lastSeenAt: burst.lastAt,
        evidence: { kind: 'login_burst' as const, client, attempts: burst.peak },
      },
    ];
  });
}

/** One finding per identifier whose refused calls made a burst in the (settled) window. */
export function rateLimitBurstFindings(
  events: FailedAuditEvent[],
  window: AnalysisWindow,
): FindingCandidate[] {
  const identifierOf = (event: FailedAuditEvent) => {
    if (event.eventType !== RATE_LIMIT_HIT || text(event.details.limitType) === LOCKOUT_LIMIT_TYPE)
      return null;
    const raw = text(event.details.identifier) ?? event.licenseKey ?? event.ipAddress;
    // A key-scoped limit's identifier is the key itself: shown masked, as everywhere else.
    return raw && text(event.details.scope) === 'key' ? `key ${maskLicenseKey(raw)}` : raw;
  };
  return [...groupBy(events, identifierOf)].flatMap(([identifier, hits]) => {
    const burst = trailingBurst(
      hits.map((e) => ({ at: e.timestamp, weight: countOf(e) })),
      window,
      RATE_LIMIT_BURST.spanMs,
      RATE_LIMIT_BURST.minRefused,
      'sum',
    );
    if (!burst) return [];
    const limitTypes = [...new Set(hits.map((e) => text(e.details.limitType) ?? 'unknown'))].sort();
    return [
      {
        analysisType: 'rate_limit_burst' as const,
        subject: identifier,
        severity: severityAt(burst.peak, RATE_LIMIT_BURST.severity),
        title: `Burst of rate-limited calls from ${identifier}`,
        description:
          `The rate limits refused ${plural(burst.peak, 'call')} from ${identifier} within ` +
          `${RATE_LIMIT_BURST.spanMs / MINUTE_MS} minutes (${listNames(limitTypes)}; the last window began at ${clockTime(burst.lastAt)}).`,
        suggestedAction: `A script or client calling far too often, or someone probing: look ${identifier} up in Security & Analytics and block it at your proxy if it is not a customer.`,
        occurrences: burst.occurrences,
        lastSeenAt: burst.lastAt,
        evidence: {
          kind: 'rate_limit_burst' as const,
          identifier,
          refused: burst.peak,
          limitTypes,
        },
      },
    ];
  });
}

export async function detectLoginBursts(
  ctx: AppContext,
  window: AnalysisWindow,
): Promise<FindingCandidate[]> {
  const events = await loadFailedAuditEvents(ctx.db, ['admin_login', RATE_LIMIT_HIT], {
    since: window.from - LOGIN_BURST.spanMs,
    until: window.to,
  });
  return loginBurstFindings(events, window);
}

export async function detectRateLimitBursts(
  ctx: AppContext,
  window: AnalysisWindow,
): Promise<FindingCandidate[]> {
  const settle = ctx.config.RATE_LIMIT_WINDOW_MS;
  const settled = { from: window.from - settle, to: window.to - settle };
  const events = await loadFailedAuditEvents(ctx.db, [RATE_LIMIT_HIT], {
    since: settled.from - RATE_LIMIT_BURST.spanMs,
    until: settled.to,
  });
  return rateLimitBurstFindings(events, settled);
}
