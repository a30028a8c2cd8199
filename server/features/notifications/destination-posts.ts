import type { OperatorAlert } from '../../../common/notifications.ts';
import { alertJsonBodyOf, foldAlertMessages, sampleAlert } from './alert-message.ts';
import {
  type DiscordMessageOptions,
  foldDiscordMessages,
  jsonBodyOf,
  type NotifiedFind,
  sampleFind,
} from './discord-message.ts';
import type { LaneDelivery, LaneDestination } from './dispatcher.store.ts';
import type { NotificationDestinationsTable } from './notifications.table.ts';
import {
  type OutboundKind,
  type OutboundPolicy,
  OutboundTimeoutError,
  OutboundUrlError,
  postJson,
  REQUEST_TIMEOUT_MS,
} from './outbound-request.ts';
import { type DeliveryOutcome, networkOutcome, outcomeOf, type RateLimiter } from './rate-limits.ts';

/*
 * Posting finds to one destination: the requests a batch of due rows makes (Discord: a burst folded
 * into few messages; a JSON endpoint: one find a request), each post's outcome, and the Send test
 * button's sample post. A lane (delivery-lane.ts) decides when and what to post.
 */

export type Destination = LaneDestination;

/** How long a post waits: `answerMs` for an answer in time, `lateMs` at most for a late one. */
export interface PostTiming {
  answerMs: number;
  lateMs: number;
}

/**
 * A post without an answer after REQUEST_TIMEOUT_MS is late, not lost: its connection stays open
 * until LATE_ANSWER_MS, and an answer in that time decides (Discord's `?wait=true` answer is the
 * created message, with its id). Only a post with no answer at all is repeated.
 */
export const LATE_ANSWER_MS = 10_000;
export const DEFAULT_TIMING: PostTiming = { answerMs: REQUEST_TIMEOUT_MS, lateMs: LATE_ANSWER_MS };

function optionsOf(destination: Destination, joinUrlTemplate: string | null): DiscordMessageOptions {
  return {
    includeJoinData: destination.includeJoinData,
    mentionRoleId: destination.mentionRoleId,
    mentionFromValue: destination.mentionFromValue,
    joinUrlTemplate,
  };
}

/** One request's worth: what to post, the deliveries it carries, and the key a repeat shares. */
export interface Post {
  body: unknown;
  rows: LaneDelivery[];
  /** The same on every try of these deliveries (JSON: the Idempotency-Key header and `deliveryId`). */
  idempotencyKey: string;
}

/** The key of a delivery's every try. */
export const deliveryKeyOf = (rowId: number) => `scanline-delivery-${rowId}`;

/**
 * The posts for a lane's due rows, in their order. A row older than the destination's maximum age
 * at `now` is posted marked late (the lane has dropped it already when its late mode is 'drop').
 */
export function postsFor(
  destination: Destination,
  rows: LaneDelivery[],
  joinUrlTemplate: string | null,
  now: number,
): Post[] {
  if (destination.alerts) return alertPostsFor(destination, rows);
  const lateAgeOf = (row: LaneDelivery) =>
    now - row.foundAt > destination.maxAgeMs ? (now - row.foundAt) / 1000 : null;
  const finds = rows.map((row) => ({ row, find: JSON.parse(row.payload) as NotifiedFind }));
  if (destination.kind === 'discord') {
    return foldDiscordMessages(
      finds,
      (x) => x.find,
      optionsOf(destination, joinUrlTemplate),
      (x) => lateAgeOf(x.row),
    ).map((m) => ({
      body: m.message,
      rows: m.items.map((x) => x.row),
      idempotencyKey: deliveryKeyOf(m.items[0]!.row.id),
    }));
  }
  // A generic webhook gets one find per request, so each is acknowledged (and marked) on its own.
  return finds.map((x) => {
    const key = deliveryKeyOf(x.row.id);
    return {
      body: jsonBodyOf(x.find, destination, key, lateAgeOf(x.row)),
      rows: [x.row],
      idempotencyKey: key,
    };
  });
}

/** The posts of an alerts destination's due rows: Discord folds them in order; JSON one a request. */
function alertPostsFor(destination: Destination, rows: LaneDelivery[]): Post[] {
  const alerts = rows.map((row) => ({ row, alert: JSON.parse(row.payload) as OperatorAlert }));
  if (destination.kind === 'discord') {
    return foldAlertMessages(alerts, (x) => x.alert).map((m) => ({
      body: m.message,
      rows: m.items.map((x) => x.row),
      idempotencyKey: deliveryKeyOf(m.items[0]!.row.id),
    }));
  }
  return alerts.map((x) => {
    const key = deliveryKeyOf(x.row.id);
    return { body: alertJsonBodyOf(x.alert, destination, key), rows: [x.row], idempotencyKey: key };
  });
}

/** What one request came to. */
export interface Attempted {
  outcome: DeliveryOutcome;
  /** The HTTP status of the answer; null when there was none. */
  status: number | null;
  /** Sent, and no answer came even late: the only case a post is repeated at once. */
  timedOut: boolean;
  /** What the destination answered for the post (Discord's message id), when it says. */
  remoteId: string | null;
  /** The answer came after `timing.answerMs` (taken all the same). */
  late: boolean;
}

/** Discord's execute-webhook waits for the message to be created and answers it (with its id). */
function urlToPost(url: string, kind: OutboundKind): string {
  if (kind !== 'discord') return url;
  return `${url}${url.includes('?') ? '&' : '?'}wait=true`;
}

function remoteIdOf(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { id?: unknown };
    return typeof parsed.id === 'string' ? parsed.id : null;
  } catch {
    return null;
  }
}

/** Posts one body; an answer (in time or late) or a network error becomes an outcome. */
export async function attempt(
  destination: Pick<Destination, 'url' | 'kind'>,
  post: Pick<Post, 'body' | 'idempotencyKey'>,
  policy: OutboundPolicy,
  attempts: number,
  limits: RateLimiter | null,
  timing: PostTiming = DEFAULT_TIMING,
): Promise<Attempted> {
  const kind: OutboundKind = destination.kind === 'discord' ? 'discord' : 'json';
  const headers = kind === 'json' ? { 'idempotency-key': post.idempotencyKey } : undefined;
  const started = Date.now();
  try {
    const res = await postJson(urlToPost(destination.url, kind), post.body, policy, kind, {
      headers,
      timeoutMs: Math.max(timing.answerMs, timing.lateMs),
    });
    limits?.observe(destination.url, res);
    const ok = res.status >= 200 && res.status < 300;
    return {
      outcome: outcomeOf(res, attempts),
      status: res.status,
      timedOut: false,
      remoteId: ok ? remoteIdOf(res.body) : null,
      late: Date.now() - started > timing.answerMs,
    };
  } catch (error) {
    if (error instanceof OutboundUrlError && !error.transient) {
      // The URL breaks the rules now (its host resolves elsewhere, a setting changed): it stays off.
      const outcome: DeliveryOutcome = { kind: 'disable', reason: error.message, error: error.message };
      return { outcome, status: null, timedOut: false, remoteId: null, late: false };
    }
    const timedOut = error instanceof OutboundTimeoutError;
    return {
      outcome: networkOutcome(error, attempts, undefined, timedOut),
      status: null,
      timedOut,
      remoteId: null,
      late: false,
    };
  }
}

export interface TestSendResult {
  ok: boolean;
  /** The HTTP status of the answer; null when there was none. */
  status: number | null;
  error?: string;
}

/**
 * Posts a sample find (to an alerts destination: a sample alert) to a destination as it is (the
 * *Send test* button); nothing is stored. It goes
 * through the dispatcher's rate limiter: while Discord has asked this webhook to wait (or the lane
 * backs off after repeated 429s), nothing is sent and the answer says how long is left.
 */
export async function sendTestFind(
  destination: Pick<
    NotificationDestinationsTable,
    'name' | 'kind' | 'url' | 'include_join_data' | 'mention_role_id' | 'mention_from_value'
  > & { id: number; alerts?: number },
  policy: OutboundPolicy,
  joinUrlTemplate: string | null,
  limits: RateLimiter | null = null,
): Promise<TestSendResult> {
  const waitMs = limits?.waitMs(destination.url) ?? 0;
  if (waitMs > 0) {
    return { ok: false, status: null, error: `Rate limited: try again in ${Math.ceil(waitMs / 1000)} s` };
  }
  const dest: Destination = {
    id: destination.id,
    name: destination.name,
    kind: destination.kind,
    url: destination.url,
    includeJoinData: Number(destination.include_join_data) === 1,
    mentionRoleId: destination.mention_role_id,
    // A test never pings the role.
    mentionFromValue: null,
    maxAgeMs: Number.POSITIVE_INFINITY,
    lateMode: 'drop',
    alerts: Number(destination.alerts ?? 0) === 1,
  };
  const sample = dest.alerts ? sampleAlert(new Date()) : sampleFind(new Date());
  const row: LaneDelivery = { id: 0, attempts: 0, foundAt: Date.now(), payload: JSON.stringify(sample) };
  const [post] = postsFor(dest, [row], joinUrlTemplate, Date.now());
  const { outcome, status } = await attempt(dest, post!, policy, 0, limits);
  switch (outcome.kind) {
    case 'sent':
      return { ok: true, status };
    case 'retry':
    case 'fail':
      return { ok: false, status, error: outcome.error };
    case 'disable':
      return { ok: false, status, error: outcome.reason };
  }
}
