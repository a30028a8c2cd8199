import type { FastifyReply, FastifyRequest } from 'fastify';
import { BOT_ENROLLMENT_TEXTS } from '../../../common/bot-enrollment.ts';
import type { AppContext } from '../../context.ts';
import { sha256 } from '../auth/secret.ts';
import { findCredentialState, findLiveCredentialByHash, touchCredential } from './bot-credential.store.ts';

/**
 * Who a bot call comes from: an enrolled bot (its own credential names it; `tokenHash` is that
 * credential's hash) or the shared bot token (BOT_TOKEN_LEGACY), which names no bot.
 */
export type BotCaller = { kind: 'enrolled'; ghostId: string; tokenHash: string } | { kind: 'shared' };

/** A credential's use is written at most this often (its "last seen" is to the minute). */
const TOUCH_EVERY_MS = 60_000;

/**
 * The bot a credential belongs to, read from the database on every call (never cached: revoking it
 * takes effect on every instance at once, with or without the bus). It is looked up by its SHA-256:
 * a timing difference could tell at most something about the hash of a guess, never the credential.
 */
export async function verifyBotCredential(
  ctx: AppContext,
  token: string,
  ip: string | null,
): Promise<BotCaller | null> {
  const tokenHash = sha256(token);
  const found = await findLiveCredentialByHash(ctx.db, tokenHash);
  if (!found) return null;
  ctx.services.enrolledBots.confirm(found.ghostId);
  const now = ctx.now();
  if (found.lastSeenAt === null || now - found.lastSeenAt >= TOUCH_EVERY_MS)
    await touchCredential(ctx.db, tokenHash, now, ip);
  return { kind: 'enrolled', ghostId: found.ghostId, tokenHash };
}

/** Whether `tokenHash` is still the live credential of `ghostId` (a socket's liveness check). */
export async function isCredentialLive(
  ctx: AppContext,
  ghostId: string,
  tokenHash: string,
): Promise<boolean> {
  const found = await findLiveCredentialByHash(ctx.db, tokenHash);
  return found?.ghostId === ghostId;
}

/** Whether the shared token may still speak for `ghostId`: not once that id has (or had) its own credential. */
export async function sharedMaySpeakFor(ctx: AppContext, ghostId: string): Promise<boolean> {
  return (await findCredentialState(ctx.db, ghostId)) === null;
}

export type SpokenFor = { ok: true; ghostId: string } | { ok: false; status: 400 | 403; error: string };

/**
 * The bot a call speaks for. An enrolled caller speaks for its own bot: a `named` ghostId naming
 * another is refused (403), none is its own. The shared token speaks for the bot `named` (required),
 * and never for one that has its own credential, revoked ones included (403).
 */
export async function botSpokenFor(
  ctx: AppContext,
  caller: BotCaller,
  named: string | undefined,
): Promise<SpokenFor> {
  if (caller.kind === 'enrolled') {
    if (named !== undefined && named !== caller.ghostId)
      return { ok: false, status: 403, error: BOT_ENROLLMENT_TEXTS.otherBot(caller.ghostId, named) };
    return { ok: true, ghostId: caller.ghostId };
  }
  if (named === undefined) return { ok: false, status: 400, error: BOT_ENROLLMENT_TEXTS.ghostIdRequired };
  if (!(await sharedMaySpeakFor(ctx, named)))
    return { ok: false, status: 403, error: BOT_ENROLLMENT_TEXTS.enrolledNotShared(named) };
  return { ok: true, ghostId: named };
}

/**
 * preHandler for bot calls whose body names a bot (the server pool's claim and release): the bot
 * named must be the one the credential speaks for (botSpokenFor). A body without `ghostId` passes.
 * Needs the caller, so it goes with requireBotToken:
 *
 *     { onRequest: requireBotToken(ctx), preHandler: requireNamedBot(ctx, callerOf) }
 */
export function requireNamedBot(ctx: AppContext, callerOf: (request: FastifyRequest) => Promise<BotCaller>) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const body = request.body as Record<string, unknown> | undefined;
    const named = typeof body?.ghostId === 'string' ? body.ghostId : undefined;
    if (named === undefined) return;
    const spoken = await botSpokenFor(ctx, await callerOf(request), named);
    if (!spoken.ok) return void reply.status(spoken.status).send({ error: spoken.error });
  };
}
