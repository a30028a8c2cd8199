import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { ConfigFramePayloadSchema, EmergencyFramePayloadSchema } from '../../../common/configuration.ts';
import {
  BotMessageSchemas,
  type BotMessageType,
  BotSocketSendsSchemas,
  type ConfigAckPayloadSchema,
  GhostIdSchema,
} from '../../../common/fleet.ts';
import { SOCKET_PATH } from '../../../common/realtime.ts';
import type { AppContext } from '../../context.ts';
import { CLOSE_CODES, type RealtimeConnection, type SocketIdentity } from '../../realtime/connection.ts';
import { describeIssue } from '../../realtime/frames.ts';
import { defineHandler, type MessageHandler, type SocketProtocol } from '../../realtime/protocol.ts';
import { refuseOverBudget } from './bot-event-budget.ts';
import { botTokenOf, isBotToken, judgeBotToken } from './bot-token.ts';
import { botTopic } from './bot-topic.ts';
import { FLEET_TEXTS } from './fleet.service.ts';

/**
 * What the features above the fleet do on a bot's socket (the configuration feature: its config
 * frame after hello, its acks, its socket on record). The fleet cannot import them (features import
 * downwards), so that feature's entry hands them over as a service (ctx.services.botSocketHooks).
 */
export interface BotSocketHooks {
  /** The bot's hello was answered: send it what it needs now (its configuration, a stop). */
  helloAnswered(
    ghostId: string,
    socket: { id: string; send(type: string, payload: unknown): void },
  ): Promise<void>;
  configAcknowledged(ghostId: string, ack: z.infer<typeof ConfigAckPayloadSchema>): Promise<void>;
  socketClosed(ghostId: string, socketId: string): Promise<void>;
}

declare module '../../context.ts' {
  interface AppServices {
    /** What the features above the fleet do on a bot's socket (the configuration feature's). */
    botSocketHooks: BotSocketHooks;
  }
}

/** The close codes that refuse a bot for good (docs/rules-fleet.md, "Bot close codes"), with their close reasons. */
const BOT_REFUSALS = {
  [CLOSE_CODES.badHello]: 'Bad hello',
  [CLOSE_CODES.botRemoved]: 'Removed from the fleet',
  [CLOSE_CODES.fleetFull]: 'The fleet is full',
} as const;

/**
 * A bot is in or out, never half: a refused one gets one `error` frame naming why, then its socket
 * closes with the refusal's code. Nothing it sent after is handled (botHandler checks isOpen).
 */
function refuseBot(
  connection: RealtimeConnection,
  code: keyof typeof BOT_REFUSALS,
  answer: { error: string; requestId?: string },
): void {
  connection.send('error', answer);
  connection.close(code, BOT_REFUSALS[code]);
}

/** The bot a socket was opened for (`?ghostId=` on its upgrade): its hello must name the same one. */
const upgradeGhostIds = new WeakMap<SocketIdentity, string>();
/** Each bot socket's removal subscription, ended when the socket closes. */
const removalSubscriptions = new WeakMap<RealtimeConnection, () => void>();

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

/** What bots are sent: the socket's own answers, and the configuration feature's pushes (publisher). */
const BOT_SENDS = {
  ...BotSocketSendsSchemas,
  config: ConfigFramePayloadSchema,
  emergency_stop: EmergencyFramePayloadSchema,
  emergency_resume: EmergencyFramePayloadSchema,
} as const;

/**
 * Scanner bots (bot token): the fleet's bot protocol (common/fleet.ts). `hello` names the socket's
 * bot (its Ghost_ID); anything else before it is refused with 'Say hello first' (4400). Each message
 * is handed to the fleet; a full fleet refuses (4409), a removal closes the socket (4403).
 */
export function botProtocol(ctx: AppContext, hooks: BotSocketHooks): SocketProtocol {
  /** Refuses this bot's socket here when the bot is removed from the fleet (on any instance). */
  function followRemoval(connection: RealtimeConnection, ghostId: string): void {
    if (removalSubscriptions.has(connection)) return;
    removalSubscriptions.set(
      connection,
      ctx.services.fleet.onRemoved(ghostId, () =>
        refuseBot(connection, CLOSE_CODES.botRemoved, { error: FLEET_TEXTS.removed }),
      ),
    );
  }

  function botHandler(type: BotMessageType): MessageHandler {
    return defineHandler(BotMessageSchemas[type], async (payload, { connection, requestId, follow }) => {
      const { fleet } = ctx.services;
      // Refused already (or closing): what the bot sent after is not answered.
      if (!connection.isOpen) return;
      const ghostId = type === 'hello' ? (payload as { ghostId: string }).ghostId : connection.identity.name;
      if (ghostId === undefined) {
        refuseBot(connection, CLOSE_CODES.badHello, { error: FLEET_TEXTS.sayHello });
        return;
      }
      const opened = upgradeGhostIds.get(connection.identity);
      if (type === 'hello' && opened !== undefined && opened !== ghostId) {
        // Its upgrade was counted against `opened` (upgradeLimitKey): another bot may not use that socket.
        refuseBot(connection, CLOSE_CODES.badHello, {
          error: `This socket was opened for ${opened} (?ghostId=); its hello must name ${opened}`,
        });
        return;
      }
      const named = connection.identity.name;
      if (type === 'hello' && named !== undefined && named !== ghostId) {
        refuseBot(connection, CLOSE_CODES.badHello, {
          error: `This socket is already ${named}; open another one for ${ghostId}`,
        });
        return;
      }
      // A frame without an id can get no ack: its rows go with the next batch rather than their own commit.
      const { result: applied, settled } = await fleet.begin(
        ghostId,
        type,
        payload as never,
        requestId !== undefined,
      );
      // A hello is answered once the bot is on record; other frames are applied (and reach dashboards)
      // at once, and acked when their rows are committed, so a bot's next frame never waits for a commit.
      const result = type === 'hello' ? await settled : applied;
      if (!result.ok) {
        if (result.status === 409 && !fleet.hasRoomFor(ghostId)) {
          refuseBot(connection, CLOSE_CODES.fleetFull, { error: result.error });
        } else {
          const retry =
            result.retryAfterSeconds === undefined ? {} : { retryAfter: result.retryAfterSeconds };
          connection.send('error', {
            error: result.error,
            ...retry,
            ...(requestId === undefined ? {} : { requestId }),
          });
        }
        return;
      }
      if (type === 'hello') {
        connection.identity.name = ghostId;
        connection.send('hello', { ghostId, serverTime: ctx.now() });
        // What is published to this bot alone (its `config` frames) reaches this socket.
        follow(botTopic(ghostId));
        followRemoval(connection, ghostId);
        // Its configuration (and, while the network is stopped, emergency_stop) right after the answer.
        await hooks.helloAnswered(ghostId, { id: connection.id, send: (t, p) => connection.send(t, p) });
      } else if (type === 'heartbeat') {
        connection.send('heartbeat', { serverTime: ctx.now() });
      } else if (type === 'config_ack') {
        await hooks.configAcknowledged(ghostId, payload as z.infer<typeof ConfigAckPayloadSchema>);
      }
      // A bot that numbered its frame learns, once its rows are committed, that it is safe and which
      // stream position it got (or why the database refused it).
      if (requestId !== undefined && type !== 'hello' && type !== 'heartbeat') {
        settled.then(
          (done) => {
            if (!connection.isOpen) return;
            if (!done.ok) return connection.send('error', { error: done.error, requestId });
            const { ok: _ok, ...rest } = done;
            connection.send('ack', { requestId, ...rest });
          },
          // Not a refusal of the row (that is `done.ok === false`): the store failed unexpectedly.
          () => {
            if (connection.isOpen) connection.send('error', { error: `Could not store ${type}`, requestId });
          },
        );
      }
    });
  }

  return {
    kind: 'bot',
    path: SOCKET_PATH,
    /**
     * A bot token in `Authorization: Bearer` or `?token=` (executors cannot set headers on a socket).
     * A revoked token closes the socket at the next liveness sweep. An address past its wrong tokens
     * is refused with 429 (judgeBotToken), a right token too; a bad `?ghostId=` with 400.
     */
    async authenticate(request) {
      const token = botTokenOf(request);
      if (token === undefined) return null;
      const verdict = await judgeBotToken(ctx, request);
      if (!verdict.ok) {
        return verdict.status === 429
          ? { refused: { status: 429, error: verdict.error, retryAfter: verdict.retryAfter } }
          : null;
      }
      const ghostId = upgradeGhostIdParam(request);
      if (ghostId !== undefined) {
        const error = upgradeGhostIdError(ghostId);
        if (error) return { refused: { status: 400, error } };
      }
      const identity: SocketIdentity = { kind: 'bot', stillValid: () => isBotToken(ctx, token) };
      if (typeof ghostId === 'string') upgradeGhostIds.set(identity, ghostId);
      return identity;
    },
    /**
     * Bots are limited per bot, not per address (1,000 bots behind one NAT must all connect): a valid
     * token counts against the bot its `?ghostId=` names (whose hello must then match), or not at
     * all without one.
     */
    async upgradeLimitKey(request) {
      if (botTokenOf(request) === undefined) return undefined;
      const ghostId = upgradeGhostIdParam(request);
      const named = ghostId === undefined || upgradeGhostIdError(ghostId) === null;
      if (!named || !(await judgeBotToken(ctx, request)).ok) return undefined;
      return ghostId === undefined || ghostId === null ? null : ghostId;
    },
    accepts: Object.fromEntries(
      (Object.keys(BotMessageSchemas) as BotMessageType[]).map((type) => [type, botHandler(type)]),
    ),
    sends: BOT_SENDS,
    replaceable: new Set(),
    // A bot named by its hello draws on its budget (shared with POST /api/bot/events); before its
    // hello, on the per-socket limit.
    admit(connection) {
      const { name: ghostId } = connection.identity;
      if (ghostId === undefined) return 'per-socket';
      const refusal = refuseOverBudget(ctx, ghostId, 1);
      return refusal && { error: refusal.frameError, retryAfter: Number(refusal.retryAfter) };
    },
    async onDisconnect({ connection }) {
      removalSubscriptions.get(connection)?.();
      removalSubscriptions.delete(connection);
      const { name: ghostId } = connection.identity;
      // Pushes to it now wait for its next hello (unless another socket of it has taken over). At
      // shutdown the database may already be closed: a socket left on record is replaced at the bot's
      // next hello, and counts for nothing once the fleet stops hearing from the bot.
      if (ghostId !== undefined) await hooks.socketClosed(ghostId, connection.id).catch(() => {});
    },
    onInvalidPayload(type, answer, { connection }) {
      // In order with the frames before it: a hello still being handled names the socket first.
      connection.enqueue(async () => {
        if (!connection.isOpen) return;
        // A bad hello, or any frame before hello: the bot is refused (4400).
        if (type === 'hello' || connection.identity.name === undefined) {
          refuseBot(connection, CLOSE_CODES.badHello, answer);
        } else {
          connection.send('error', answer);
        }
      });
    },
  };
}
