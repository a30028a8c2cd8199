import type { HealthReport } from '../../../../common/ai-health.ts';
import type { Config } from '../../../config.ts';
import type { AppContext } from '../../../context.ts';
import { countRefusedCalls } from '../../security/rate-limit-hits.store.ts';
import { countFailedAuditEvents } from './report.store.ts';

/** Threats are counted over the last hour of the audit log. */
export const THREAT_WINDOW_MS = 60 * 60_000;

/**
 * Failed events that are someone trying what they may not: a wrong admin secret, a device beyond a
 * key's limit (loader or redemption), a bad challenge signature or a replayed/unknown nonce (the
 * loader's refusals it audits). Rate-limit hits are added separately, by the refusals each row
 * stands for (`details.count`), as the Security screen sums them.
 */
export const THREAT_EVENT_TYPES = [
  'admin_login',
  'binding_attempt',
  'hmac_verification',
  'challenge_verified',
] as const;

/** An ADMIN_SECRET shorter than this is weak (a generated one is 32 characters of base64url). */
export const MIN_ADMIN_SECRET_LENGTH = 16;

/** Secrets from examples and habits that anyone would try first (compared without case). */
const WELL_KNOWN_SECRETS = new Set([
  'admin',
  'administrator',
  'password',
  'changeme',
  'change-me',
  'secret',
  'admin-secret',
  'adminsecret',
  'your-admin-secret',
  'change-me-admin-secret',
  'changemeadminsecret',
  'supersecretpassword',
  'scanline',
  'scanline-admin',
  'scanline-admin-secret',
]);

/*
 * vulnerabilityScore (0–100, higher is worse) = the weaknesses' points + 2 per active threat (at
 * most 40), capped at 100. A guessable admin secret opens everything (40); TRUST_PROXY=true lets any
 * client choose the address the per-IP limits count (25); a session cookie sent without Secure over
 * TLS can leak to a plain-HTTP request (20).
 */
export const WEAKNESS_POINTS = { adminSecret: 40, trustProxy: 25, insecureCookie: 20 } as const;
export const POINTS_PER_THREAT = 2;
export const MAX_THREAT_POINTS = 40;

export const WEAKNESS_TEXTS = {
  defaultSecret: 'The admin secret (ADMIN_SECRET) is a well-known default',
  shortSecret: `The admin secret (ADMIN_SECRET) is shorter than ${MIN_ADMIN_SECRET_LENGTH} characters`,
  trustProxy:
    'TRUST_PROXY=true trusts every hop: any client can set X-Forwarded-For and choose the address per-IP limits count',
  insecureCookie: 'The app is served over HTTPS but the session cookie is not Secure (COOKIE_SECURE=false)',
} as const;

/** How the Generate request reached the server: the cookie check depends on it. */
export interface RequestTransport {
  /** Fastify's `request.protocol`: 'https' over TLS, or behind a proxy trusted through TRUST_PROXY that says so. */
  protocol: string;
  /** The raw X-Forwarded-Proto header, trusted or not. */
  forwardedProto: string | undefined;
}

/**
 * The setup's weaknesses, each with its points. The cookie one is judged from the Generate request:
 * the app counts as served over TLS when that request came over HTTPS, or through a proxy that says
 * it received HTTPS (X-Forwarded-Proto, even from a proxy TRUST_PROXY does not name: only the admin's
 * own request is read, and such a proxy is the case COOKIE_SECURE exists for).
 */
export function findWeaknesses(
  config: Config,
  transport: RequestTransport,
): { text: string; points: number }[] {
  const weaknesses: { text: string; points: number }[] = [];
  const secret = config.ADMIN_SECRET;
  // Unset: the generated secret (24 random bytes) is in use, which is neither short nor known.
  if (secret !== undefined) {
    if (WELL_KNOWN_SECRETS.has(secret.trim().toLowerCase())) {
      weaknesses.push({ text: WEAKNESS_TEXTS.defaultSecret, points: WEAKNESS_POINTS.adminSecret });
    } else if (secret.length < MIN_ADMIN_SECRET_LENGTH) {
      weaknesses.push({ text: WEAKNESS_TEXTS.shortSecret, points: WEAKNESS_POINTS.adminSecret });
    }
  }
  if (config.TRUST_PROXY === true) {
    weaknesses.push({ text: WEAKNESS_TEXTS.trustProxy, points: WEAKNESS_POINTS.trustProxy });
  }
  const forwardedHttps = transport.forwardedProto?.split(',')[0]?.trim().toLowerCase() === 'https';
  if (!config.COOKIE_SECURE && (transport.protocol === 'https' || forwardedHttps)) {
    weaknesses.push({ text: WEAKNESS_TEXTS.insecureCookie, points: WEAKNESS_POINTS.insecureCookie });
  }
  return weaknesses;
}

/** Failed logins, binding refusals, refused loader challenges and rate-limited calls in the last hour. */
export async function countActiveThreats(ctx: AppContext, now: number): Promise<number> {
  const since = now - THREAT_WINDOW_MS;
  const [failed, rateLimited] = await Promise.all([
    countFailedAuditEvents(ctx.db, THREAT_EVENT_TYPES, since),
    countRefusedCalls(ctx.db, ctx.dialect, since),
  ]);
  return failed + rateLimited;
}

/** securityHealth from the weaknesses found and the threats counted (formula above). */
export function securityHealthOf(
  weaknesses: { text: string; points: number }[],
  activeThreats: number,
): HealthReport['securityHealth'] {
  const weaknessPoints = weaknesses.reduce((sum, w) => sum + w.points, 0);
  const threatPoints = Math.min(MAX_THREAT_POINTS, activeThreats * POINTS_PER_THREAT);
  return {
    vulnerabilityScore: Math.min(100, weaknessPoints + threatPoints),
    activeThreats,
    weaknesses: weaknesses.map((w) => w.text),
  };
}
