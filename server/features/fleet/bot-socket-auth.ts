import type { FastifyRequest } from 'fastify';
import { BOT_ENROLLMENT_TEXTS } from '../../../common/bot-enrollment.ts';
import { GhostIdSchema } from '../../../common/fleet.ts';
import type { AppContext } from '../../context.ts';
import type { RealtimeConnection, SocketIdentity } from '../../realtime/connection.ts';
import { describeIssue } from '../../realtime/frames.ts';
import type { Clients, SocketRefusal } from '../../realtime/protocol.ts';
import {
  type BotCaller,
  isCredentialLive,
  sharedMaySpeakFor,
  verifyBotCredential,
} from './bot-credentials.ts';
import { botTokenOf, isSharedBotToken, judgeBotToken } from './bot-token.ts';
import { type CredentialChange, keyIdOf } from './enrolled-bots.ts';

/*
 * Who may open a bot socket, and for which bot: the bot protocol's authentication (bot.protocol.ts
 * speaks the messages). A bot's own credential names its bot from the upgrade on; the shared token
 * (BOT_TOKEN_LEGACY) lets the hello name one that has no credential of its own.
 */

/** The bot a socket was opened for (its credential's, or `?ghostId=`): its hello must name the same one. */
const upgradeGhostIds = new WeakMap<SocketIdentity, string>();
/** Who opened each bot socket. */
const socketCallers = new WeakMap<SocketIdentity, BotCaller>();

/**
 * Why a hello naming `ghostId` may not come on this socket because its upgrade named another bot
 * (its credential's, or `?ghostId=`, which its upgrade was counted against), or null.
 */
export function helloMismatch(identity: SocketIdentity, ghostId: string): string | null {
  const opened = upgradeGhostIds.get(identity);
  if (opened === undefined || opened === ghostId) return null;
  return socketCallers.get(identity)?.kind === 'enrolled'
    ? `This socket's botToken belongs to ${opened}; its hello must name ${opened}`
    : `This socket was opened for ${opened} (?ghostId=); its hello must name ${opened}`;
}

/** The `?ghostId=` of an upgrade request: undefined when absent, null when present but not a single string. */
function upgradeGhostIdParam(request: FastifyRequest): string | null | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.ghostId;
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : null;
}

/** What is wrong with an upgrade's `?ghostId=`, or null when it names a bot. */
function upgradeGhostIdError(ghostId: string | null): string | null {
  if (ghostId === null) return 'ghostId must be given once';
  const checked = GhostIdSchema.safeParse(ghostId);
  if (!checked.success) return describeIssue(checked.error);
  return checked.data === ghostId ? null : 'ghostId must not start or end with spaces';
}

/**
 * A bot token in `Authorization: Bearer` or `?token=` (executors cannot set headers on a socket).
 * An address past its wrong tokens is refused with 429 (judgeBotToken), a right token too; a bad
 * `?ghostId=` with 400, one naming another bot than the credential's with 403; the shared token
 * with BOT_TOKEN_LEGACY off with 401. The identity is checked again at every liveness sweep: a
 * revoked or replaced credential, or the shared token on an id that has enrolled since, closes it.
 */
export async function authenticateBot(
  ctx: AppContext,
  request: FastifyRequest,
): Promise<SocketIdentity | SocketRefusal | null> {
  const token = botTokenOf(request);
  if (token === undefined) return null;
  const verdict = await judgeBotToken(ctx, request);
  if (!verdict.ok) {
    return verdict.status === 429
      ? { refused: { status: 429, error: verdict.error, retryAfter: verdict.retryAfter } }
      : null;
  }
  const { caller } = verdict;
  if (caller.kind === 'shared' && !ctx.config.BOT_TOKEN_LEGACY)
    return { refused: { status: 401, error: BOT_ENROLLMENT_TEXTS.legacyOff } };
  const named = upgradeGhostIdParam(request);
  if (named !== undefined) {
    const error = upgradeGhostIdError(named);
    if (error) return { refused: { status: 400, error } };
    if (caller.kind === 'enrolled' && named !== caller.ghostId)
      return { refused: { status: 403, error: BOT_ENROLLMENT_TEXTS.otherBot(caller.ghostId, named!) } };
  }
  const ip = request.ip ?? null;
  const identity: SocketIdentity = {
    kind: 'bot',
    // At each liveness sweep; an enrolled bot's check also keeps its "last seen" current.
    stillValid: async () => {
      if (caller.kind === 'shared') return sharedStillValid(ctx, token, identity);
      const now = await verifyBotCredential(ctx, token, ip);
      return now?.kind === 'enrolled' && now.ghostId === caller.ghostId;
    },
  };
  socketCallers.set(identity, caller);
  const ghostId = caller.kind === 'enrolled' ? caller.ghostId : named;
  if (typeof ghostId === 'string') upgradeGhostIds.set(identity, ghostId);
  return identity;
}

async function sharedStillValid(ctx: AppContext, token: string, identity: SocketIdentity): Promise<boolean> {
  if (!ctx.config.BOT_TOKEN_LEGACY || !(await isSharedBotToken(ctx, token))) return false;
  return identity.name === undefined || sharedMaySpeakFor(ctx, identity.name);
}

/**
 * Bots are limited per bot, not per address (1,000 bots behind one NAT must all connect): a valid
 * token counts against the bot its credential or `?ghostId=` names (whose hello must then match),
 * or not at all without one.
 */
export async function botUpgradeLimitKey(
  ctx: AppContext,
  request: FastifyRequest,
): Promise<string | null | undefined> {
  if (botTokenOf(request) === undefined) return undefined;
  const ghostId = upgradeGhostIdParam(request);
  const named = ghostId === undefined || upgradeGhostIdError(ghostId) === null;
  const verdict = await judgeBotToken(ctx, request);
  if (!named || !verdict.ok) return undefined;
  if (verdict.caller.kind === 'enrolled') return verdict.caller.ghostId;
  return ghostId === undefined || ghostId === null ? null : ghostId;
}

/**
 * Why a hello naming `ghostId` may not be this socket's, as far as credentials go, or null: the
 * shared token may not speak for an id that has (or had) its own credential, and a credential
 * revoked or replaced since the upgrade (whose bus message came before the socket) speaks no more.
 */
export async function credentialRefusalOfHello(
  ctx: AppContext,
  identity: SocketIdentity,
  ghostId: string,
): Promise<string | null> {
  const caller = socketCallers.get(identity);
  if (caller?.kind === 'enrolled')
    return (await isCredentialLive(ctx, caller.ghostId, caller.tokenHash))
      ? null
      : BOT_ENROLLMENT_TEXTS.revoked;
  if (caller?.kind !== 'shared') return null;
  return (await sharedMaySpeakFor(ctx, ghostId)) ? null : BOT_ENROLLMENT_TEXTS.enrolledNotShared(ghostId);
}

/**
 * Closes, on this instance, the bot sockets a credential change leaves without a right to speak:
 * on a revocation, the bot's sockets; on an enrollment, its sockets opened with another credential
 * or with the shared token. `refuse` sends the error frame and closes the socket.
 */
export function closeSocketsAfter(
  change: CredentialChange,
  clients: Clients,
  refuse: (connection: RealtimeConnection, error: string) => void,
): void {
  for (const connection of clients.ofKind('bot')) {
    const caller = socketCallers.get(connection.identity);
    const ghostId = caller?.kind === 'enrolled' ? caller.ghostId : connection.identity.name;
    if (caller === undefined || ghostId !== change.ghostId) continue;
    if (change.kind === 'revoked') {
      if (caller.kind === 'enrolled') refuse(connection, BOT_ENROLLMENT_TEXTS.revoked);
    } else if (caller.kind === 'shared') {
      refuse(connection, BOT_ENROLLMENT_TEXTS.enrolledNotShared(change.ghostId));
    } else if (keyIdOf(caller.tokenHash) !== change.keyId) {
      refuse(connection, BOT_ENROLLMENT_TEXTS.reEnrolled);
    }
  }
}
