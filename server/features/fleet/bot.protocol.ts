import type { z } from 'zod';
import { ConfigFramePayloadSchema, EmergencyFramePayloadSchema } from '../../../common/configuration.ts';
import {
  BotMessageSchemas,
  type BotMessageType,
  BotSocketSendsSchemas,
  type ConfigAckPayloadSchema,
} from '../../../common/fleet.ts';
import { SOCKET_PATH } from '../../../common/realtime.ts';
import type { AppContext } from '../../context.ts';
import { CLOSE_CODES, type RealtimeConnection } from '../../realtime/connection.ts';
import { defineHandler, type MessageHandler, type SocketProtocol } from '../../realtime/protocol.ts';
import { refuseOverBudget } from './bot-event-budget.ts';
import {
  authenticateBot,
  botUpgradeLimitKey,
  closeSocketsAfter,
  credentialRefusalOfHello,
  helloMismatch,
} from './bot-socket-auth.ts';
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
  // The code a session that ended gets: the bot's credential no longer lets it speak (bot-socket-auth.ts).
  [CLOSE_CODES.sessionEnded]: 'Bot credential refused',
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

/** Each bot socket's removal subscription, ended when the socket closes. */
const removalSubscriptions = new WeakMap<RealtimeConnection, () => void>();

/** What bots are sent: the socket's own answers, and the configuration feature's pushes (publisher). */
const BOT_SENDS = {
  ...BotSocketSendsSchemas,
  config: ConfigFramePayloadSchema,
  emergency_stop: EmergencyFramePayloadSchema,
  emergency_resume: EmergencyFramePayloadSchema,
} as const;

/**
 * Scanner bots (their own credential, or the shared token: bot-socket-auth.ts): the fleet's bot
 * protocol (common/fleet.ts). `hello` names the socket's bot (its Ghost_ID); anything else before it
 * is refused with 'Say hello first' (4400). Each message is handed to the fleet; a full fleet refuses
 * (4409), a removal closes the socket (4403), a revoked credential too (4401).
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
      const mismatch = type === 'hello' ? helloMismatch(connection.identity, ghostId) : null;
      if (mismatch !== null) {
        refuseBot(connection, CLOSE_CODES.badHello, { error: mismatch });
        return;
      }
      const credentialRefusal =
        type === 'hello' ? await credentialRefusalOfHello(ctx, connection.identity, ghostId) : null;
      if (credentialRefusal !== null) {
        refuseBot(connection, CLOSE_CODES.sessionEnded, { error: credentialRefusal });
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
    /** Its own credential, or the shared token while BOT_TOKEN_LEGACY is on (bot-socket-auth.ts). */
    authenticate: (request) => authenticateBot(ctx, request),
    upgradeLimitKey: (request) => botUpgradeLimitKey(ctx, request),
    // A credential revoked or replaced (on any instance) closes the sockets it opened here at once.
    start: (clients) =>
      ctx.services.enrolledBots.onChange((change) =>
        closeSocketsAfter(change, clients, (connection, error) =>
          refuseBot(connection, CLOSE_CODES.sessionEnded, { error }),
        ),
      ),
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
