import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BOT_CREDENTIAL_PREFIX, BOT_ENROLLMENT_TEXTS } from '../../../common/bot-enrollment.ts';
import type { AppContext } from '../../context.ts';
import { guardedBy } from '../../plugins/route-guards.ts';
import { randomToken, secretsEqual, sha256 } from '../auth/secret.ts';
import { limitedClientOf } from '../security/client-address.ts';
import { RATE_LIMIT_HIT } from '../security/rate-limit-hits.store.ts';
import { type BotCaller, requireNamedBot, verifyBotCredential } from './bot-credentials.ts';
import { countLiveBotTokens, insertBotTokenHash, isLiveBotTokenHash } from './bot-token.store.ts';

/*
 * Scanner bots authenticate with their own credential (a botToken from POST /api/bot/enroll,
 * bot-credentials.ts) or, while BOT_TOKEN_LEGACY is on and for bots not enrolled, with the shared
 * bot token. The shared token is BOT_TOKEN, or (when unset) one generated on first start, stored as
 * its SHA-256 and written once to BOT_TOKEN_FILE (mode 0600) so the simulator on the same machine
 * finds it with no configuration; it is also the enrollment secret. Bots send either as
 * `Authorization: Bearer <token>`, or as `?token=` on a socket upgrade from an executor that cannot
 * set headers.
 */

export const BOT_TOKEN_TEXTS = {
  missing: 'Bot token required: send Authorization: Bearer <token>',
  invalid: 'Invalid bot token',
  tooManyFailures: (seconds: number) =>
    `Too many wrong bot tokens from this address: try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}`,
} as const;

/** The audit event of a wrong bot token, and the limit type of the refusals that follow too many. */
export const BOT_AUTH_LIMIT = 'bot_auth';

/** Makes sure bots have a token; returns the generated one (and where it was written) on the start that made it. */
export async function ensureBotToken(
  ctx: AppContext,
): Promise<{ generated: string | null; file: string | null }> {
  if (ctx.config.BOT_TOKEN) return { generated: null, file: null };
  if ((await countLiveBotTokens(ctx.db)) > 0) return { generated: null, file: null };
  const token = randomToken(32);
  if (!(await insertBotTokenHash(ctx.db, sha256(token), 'generated', ctx.now()))) {
    return { generated: null, file: null };
  }
  const file = ctx.config.BOT_TOKEN_FILE;
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${token}\n`, { mode: 0o600 });
  // writeFile's mode applies only when it creates the file; an old file keeps its own otherwise.
  await chmod(file, 0o600);
  return { generated: token, file };
}

/** How long a token found in the database is trusted without asking again (admins revoke rarely). */
const VERIFIED_TTL_MS = 60_000;
const verified = new Map<string, number>();

/** Whether `token` is the shared bot token. BOT_TOKEN compares in constant time; a generated one by hash. */
export async function isSharedBotToken(ctx: AppContext, token: string | undefined): Promise<boolean> {
  if (!token || token.length > 200) return false;
  if (ctx.config.BOT_TOKEN) return secretsEqual(token, ctx.config.BOT_TOKEN);
  const hash = sha256(token);
  const now = ctx.now();
  if ((verified.get(hash) ?? 0) > now) return true;
  if (!(await isLiveBotTokenHash(ctx.db, hash))) return false;
  if (verified.size > 1000) verified.clear();
  verified.set(hash, now + VERIFIED_TTL_MS);
  return true;
}

/** The token a request carries: the Authorization bearer, else `?token=`. */
export function botTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header === 'string') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match?.[1];
  }
  const query = request.query as Record<string, unknown> | undefined;
  return typeof query?.token === 'string' ? query.token : undefined;
}

/** How a bot's credentials were judged: go ahead (and who it is), or the status and `{error}` to answer. */
export type BotAuthVerdict =
  | { ok: true; caller: BotCaller }
  | { ok: false; status: 401; error: string }
  | { ok: false; status: 429; error: string; retryAfter: string };

/** The verdict of each request, so the upgrade's rate limit and its authentication judge it once. */
const verdicts = new WeakMap<object, Promise<BotAuthVerdict>>();

/**
 * Judges the bot token a request carries. A client past RATE_LIMIT_BOT_AUTH_FAILURES wrong tokens
 * in the window gets 429 with Retry-After, a right token too, audited as `rate_limit_hit` (one row
 * per client and window, with its count); each wrong token before that is a 401, audited as a
 * failed `bot_auth`, as failed admin logins are.
 */
export function judgeBotToken(ctx: AppContext, request: FastifyRequest): Promise<BotAuthVerdict> {
  let verdict = verdicts.get(request.raw);
  if (verdict === undefined) {
    verdict = judge(ctx, request);
    verdicts.set(request.raw, verdict);
  }
  return verdict;
}

async function judge(ctx: AppContext, request: FastifyRequest): Promise<BotAuthVerdict> {
  // Wrong tokens are counted in the rate-limit store, in its fixed windows, so they are shared as the
  // other limits are; a client at the limit is refused until its window ends, whatever it sends.
  const store = request.server.rateLimitStore;
  const limit = ctx.config.RATE_LIMIT_BOT_AUTH_FAILURES;
  const client = limitedClientOf(request);
  const failuresKey = `${BOT_AUTH_LIMIT}:ip:${client}`;
  const now = ctx.now();
  const failures = await store.peek(failuresKey);
  if (failures !== null && failures.count >= limit) {
    // Counted too, so the status screen shows the client as limited while it keeps trying.
    await store.hit(failuresKey, limit, ctx.config.RATE_LIMIT_WINDOW_MS);
    const seconds = Math.max(1, Math.ceil((failures.resetAt - now) / 1000));
    request.server.pendingWrites.rateLimitHit(
      failuresKey,
      {
        eventType: RATE_LIMIT_HIT,
        success: false,
        ipAddress: request.ip ?? null,
        client,
        details: { limitType: BOT_AUTH_LIMIT, scope: 'ip', identifier: client, limit },
      },
      failures.resetAt,
      now,
    );
    return {
      ok: false,
      status: 429,
      error: BOT_TOKEN_TEXTS.tooManyFailures(seconds),
      retryAfter: String(seconds),
    };
  }
  const token = botTokenOf(request);
  if (token === undefined) return { ok: false, status: 401, error: BOT_TOKEN_TEXTS.missing };
  const caller = await recognise(ctx, token, request.ip ?? null);
  if (caller) return { ok: true, caller };
  await store.hit(failuresKey, limit, ctx.config.RATE_LIMIT_WINDOW_MS);
  request.server.pendingWrites.audit(
    {
      eventType: BOT_AUTH_LIMIT,
      success: false,
      ipAddress: request.ip ?? null,
      client,
      details: { reason: 'invalid bot token', url: request.url.split('?')[0] },
    },
    now,
  );
  return { ok: false, status: 401, error: BOT_TOKEN_TEXTS.invalid };
}

/** A bot's own credential (looked up by its hash), else the shared token, else nobody. */
async function recognise(ctx: AppContext, token: string, ip: string | null): Promise<BotCaller | null> {
  if (token.length > 200) return null;
  if (token.startsWith(BOT_CREDENTIAL_PREFIX)) {
    const enrolled = await verifyBotCredential(ctx, token, ip);
    if (enrolled) return enrolled;
  }
  return (await isSharedBotToken(ctx, token)) ? { kind: 'shared' } : null;
}

/** Who a request that passed requireBotToken comes from. */
export async function botCallerOf(ctx: AppContext, request: FastifyRequest): Promise<BotCaller> {
  const verdict = await judgeBotToken(ctx, request);
  if (!verdict.ok) throw new Error('botCallerOf: the request did not pass requireBotToken');
  return verdict.caller;
}

/**
 * onRequest hook for the bot's HTTP calls (events, server pool, enrollment): 401 JSON without a
 * valid token, 429 with Retry-After for a client past its wrong tokens (judgeBotToken). The shared
 * token passes only where it may: always to enroll, elsewhere while BOT_TOKEN_LEGACY is on.
 *
 *     app.post('/api/bot/events', { onRequest: requireBotToken(ctx) }, …)
 */
export function requireBotToken(ctx: AppContext, { enrollment = false }: { enrollment?: boolean } = {}) {
  return guardedBy('botToken', async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const verdict = await judgeBotToken(ctx, request);
    if (verdict.ok) {
      if (verdict.caller.kind === 'shared' && !enrollment && !ctx.config.BOT_TOKEN_LEGACY)
        return void reply.status(401).send({ error: BOT_ENROLLMENT_TEXTS.legacyOff });
      return;
    }
    if (verdict.status === 429) reply.header('retry-after', verdict.retryAfter);
    return void reply.status(verdict.status).send({ error: verdict.error });
  });
}

/**
 * The hooks of a bot call whose body may name a bot (the server pool): requireBotToken, then the
 * named bot must be the caller's own (requireNamedBot).
 *
 *     app.post('/api/server-pool/claim', { ...botCallHooks(ctx), schema }, …)
 */
export function botCallHooks(ctx: AppContext) {
  return {
    onRequest: requireBotToken(ctx),
    preHandler: requireNamedBot(ctx, (request) => botCallerOf(ctx, request)),
  };
}
