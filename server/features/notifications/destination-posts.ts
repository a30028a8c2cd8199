import {
  type DiscordMessageOptions,
  foldDiscordMessages,
  jsonBodyOf,
  type NotifiedFind,
  sampleFind,
} from './discord-message.ts';
import type { DueDelivery } from './dispatcher.store.ts';
import type { NotificationDestinationsTable } from './notifications.table.ts';
import { type OutboundKind, type OutboundPolicy, OutboundUrlError, postJson } from './outbound-request.ts';
import { type DeliveryOutcome, networkOutcome, outcomeOf, type RateLimiter } from './rate-limits.ts';

/*
 * Posting finds to one destination: the requests a batch of due rows makes (Discord: a burst folded
 * into few messages; a JSON endpoint: one find a request), each post's outcome, and the Send test
 * button's sample post. The dispatcher (dispatcher.ts) decides when and what to post.
 */

export type Destination = DueDelivery['destination'];

function optionsOf(destination: Destination, joinUrlTemplate: string | null): DiscordMessageOptions {
  return {
    includeJoinData: destination.includeJoinData,
    mentionRoleId: destination.mentionRoleId,
    mentionFromValue: destination.mentionFromValue,
    joinUrlTemplate,
  };
}

/** One request's worth: what to post and the deliveries it carries. */
export interface Post {
  body: unknown;
  rows: DueDelivery[];
}

export function postsFor(
  destination: Destination,
  rows: DueDelivery[],
  joinUrlTemplate: string | null,
): Post[] {
  const finds = rows.map((row) => ({ row, find: JSON.parse(row.payload) as NotifiedFind }));
  if (destination.kind === 'discord') {
    return foldDiscordMessages(finds, (x) => x.find, optionsOf(destination, joinUrlTemplate)).map((m) => ({
      body: m.message,
      rows: m.items.map((x) => x.row),
    }));
  }
  // A generic webhook gets one find per request, so each is acknowledged (and marked) on its own.
  return finds.map((x) => ({ body: jsonBodyOf(x.find, destination), rows: [x.row] }));
}

/** Posts one body; an answer or a network error becomes an outcome. */
export async function attempt(
  url: string,
  kind: OutboundKind,
  body: unknown,
  policy: OutboundPolicy,
  attempts: number,
  limits: RateLimiter | null,
): Promise<{ outcome: DeliveryOutcome; status: number | null }> {
  try {
    const res = await postJson(url, body, policy, kind);
    limits?.observe(url, res);
    return { outcome: outcomeOf(res, attempts), status: res.status };
  } catch (error) {
    if (error instanceof OutboundUrlError && !error.transient) {
      // The URL breaks the rules now (its host resolves elsewhere, a setting changed): it stays off.
      return { outcome: { kind: 'disable', reason: error.message, error: error.message }, status: null };
    }
    return { outcome: networkOutcome(error, attempts), status: null };
  }
}

export interface TestSendResult {
  ok: boolean;
  /** The HTTP status of the answer; null when there was none. */
  status: number | null;
  error?: string;
}

/** Posts a sample find to a destination as it is (the *Send test* button); nothing is stored. */
export async function sendTestFind(
  destination: Pick<
    NotificationDestinationsTable,
    'name' | 'kind' | 'url' | 'include_join_data' | 'mention_role_id' | 'mention_from_value'
  > & { id: number },
  policy: OutboundPolicy,
  joinUrlTemplate: string | null,
): Promise<TestSendResult> {
  const dest: Destination = {
    id: destination.id,
    name: destination.name,
    kind: destination.kind,
    url: destination.url,
    includeJoinData: Number(destination.include_join_data) === 1,
    mentionRoleId: destination.mention_role_id,
    // A test never pings the role.
    mentionFromValue: null,
  };
  const find = sampleFind(new Date());
  const row: DueDelivery = {
    id: 0,
    destinationId: dest.id,
    attempts: 0,
    foundAt: Date.now(),
    payload: JSON.stringify(find),
    destination: dest,
  };
  const [post] = postsFor(dest, [row], joinUrlTemplate);
  const kind: OutboundKind = dest.kind === 'discord' ? 'discord' : 'json';
  const { outcome, status } = await attempt(dest.url, kind, post!.body, policy, 0, null);
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
