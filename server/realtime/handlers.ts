import type { z } from 'zod';
import { BotMessageSchemas, type BotMessageType, type ConfigAckPayloadSchema } from '../../common/fleet.ts';
import { ClientMessageSchemas } from '../../common/realtime.ts';
import type { AppContext } from '../context.ts';
import {
  acknowledgeConfig,
  botConnected,
  botDisconnected,
} from '../features/configuration/configuration.service.ts';
import { botTopic } from '../features/fleet/bot-topic.ts';
import { FLEET_TEXTS } from '../features/fleet/fleet.service.ts';
import { upgradeGhostIdOf } from './authenticate.ts';
import { CLOSE_CODES, type ClientKind, type RealtimeConnection } from './connection.ts';
import type { ConnectionRegistry } from './connection-registry.ts';
import { fleetStateFrames, startDashboardStream, stopDashboardStream } from './fleet-stream.ts';
import { BusMessageSchema, encodeFrame } from './frames.ts';
import { readSystemHealth } from './system-health.ts';

/** What a handler gets besides its payload. */
export interface HandlerEnv {
  ctx: AppContext;
  registry: ConnectionRegistry;
  connection: RealtimeConnection;
  /** A dashboard's `?since=SEQ`: the last fleet event it has, to be sent exactly what it missed. */
  since?: number;
  /** The `id` of the frame being handled, which its answers name as `requestId`. */
  requestId?: string;
}

export interface MessageHandler<S extends z.ZodType = z.ZodType> {
  /** Validates the frame's payload; a failure is answered with an error frame naming the field. */
  schema: S;
  handle(payload: z.infer<S>, env: HandlerEnv): void | Promise<void>;
}

/** Ties a handler to its schema so `payload` is typed. */
export function defineHandler<S extends z.ZodType>(
  schema: S,
  handle: (payload: z.infer<S>, env: HandlerEnv) => void | Promise<void>,
): MessageHandler {
  return { schema, handle } as MessageHandler;
}

/**
 * How one kind of client talks to the server. The core (socket.ts) authenticates, parses, rate
 * limits and dispatches; everything kind-specific lives here, so a feature adds a message type by
 * adding a handler (and its schema in common/realtime.ts), never by editing the core.
 */
export interface ClientProtocol {
  /** Bus channel whose `{type, payload}` messages are forwarded to every socket of this kind. */
  channel: string;
  /** Types where only the newest copy matters: each socket gets at most one per 100 ms. */
  replaceable: ReadonlySet<string>;
  /** Incoming message type -> handler. Anything else is answered with an error frame. */
  handlers: Readonly<Record<string, MessageHandler>>;
  /** Runs once the socket is registered: the backfill, so a reload never shows an empty screen. */
  onConnect?(env: HandlerEnv): Promise<void>;
  /** Runs once the socket has closed and left the registry. */
  onDisconnect?(env: HandlerEnv): Promise<void>;
  /** Answers a frame whose payload failed its handler's schema (by default, socket.ts sends `answer`). */
  onInvalidPayload?(type: string, answer: { error: string; requestId?: string }, env: HandlerEnv): void;
}

async function sendSystemHealth({ ctx, registry, connection }: HandlerEnv): Promise<void> {
  connection.deliverMessage('system_health', await readSystemHealth(ctx, registry.count('admin')));
}

/** Tells the other dashboards their connected-client count changed. */
async function announceClientCount({ ctx, registry, connection }: HandlerEnv): Promise<void> {
  if (registry.count('admin') === 0) return;
  const health = await readSystemHealth(ctx, registry.count('admin'));
  registry.broadcast('admin', encodeFrame('system_health', health, ctx.now()), connection);
}

const heartbeat = defineHandler(ClientMessageSchemas.heartbeat, (_payload, { ctx, connection }) => {
  connection.send('heartbeat', { serverTime: ctx.now() });
});

/** The admin dashboard (session cookie). */
const adminProtocol: ClientProtocol = {
  channel: 'admin',
  // licensing_changed only makes screens fetch again: one per burst is enough.
  // scanner_status and hop_stats are the fleet's state: the newest copy is all a dashboard needs.
  // configuration_progress only makes the configuration screen fetch again, like licensing_changed.
  replaceable: new Set([
    'system_health',
    'scanner_status',
    'hop_stats',
    'licensing_changed',
    'configuration_progress',
  ]),
  handlers: {
    heartbeat,
    system_health: defineHandler(ClientMessageSchemas.system_health, (_payload, env) =>
      sendSystemHealth(env),
    ),
    // The live scanner list and network stats (and, with them, the hop statistics).
    scanner_status: defineHandler(ClientMessageSchemas.scanner_status, (_payload, { ctx, connection }) => {
      const fleet = ctx.services.fleet;
      if (!fleet) throw new Error('the app has no fleet');
      for (const frame of fleetStateFrames(fleet, ctx.now())) connection.deliver(frame);
    }),
    // The spec lists server_hop among what the dashboard sends; it asks for nothing yet, so it is
    // accepted quietly (the fleet feature may answer with recent hops).
    server_hop: defineHandler(ClientMessageSchemas.server_hop, () => {}),
  },
  async onConnect(env) {
    // First and synchronously: every fleet event applied so far is in what this sends.
    startDashboardStream(env.ctx, env.connection, env.since);
    await sendSystemHealth(env);
    await announceClientCount(env);
  },
  async onDisconnect(env) {
    stopDashboardStream(env.connection);
    await announceClientCount(env);
  },
};

/** The close codes that refuse a bot for good (README, "Bot close codes"), with their close reasons. */
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

/**
 * One bot message type: `hello` names the socket's bot (its Ghost_ID); anything else before it is
 * refused with 'Say hello first' (4400). Each is handed to the fleet; a full fleet refuses (4409).
 */
function botHandler(type: BotMessageType): MessageHandler {
  return defineHandler(BotMessageSchemas[type], async (payload, { ctx, connection, requestId }) => {
    const fleet = ctx.services.fleet;
    if (!fleet) throw new Error('the app has no fleet');
    // Refused already (or closing): what the bot sent after is not answered.
    if (!connection.isOpen) return;
    const ghostId = type === 'hello' ? (payload as { ghostId: string }).ghostId : connection.identity.ghostId;
    if (ghostId === undefined) {
      refuseBot(connection, CLOSE_CODES.badHello, { error: FLEET_TEXTS.sayHello });
      return;
    }
    const opened = upgradeGhostIdOf(connection.identity);
    if (type === 'hello' && opened !== undefined && opened !== ghostId) {
      // Its upgrade was counted against `opened` (socket.ts): another bot may not use that socket.
      refuseBot(connection, CLOSE_CODES.badHello, {
        error: `This socket was opened for ${opened} (?ghostId=); its hello must name ${opened}`,
      });
      return;
    }
    const named = connection.identity.ghostId;
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
        const retry = result.retryAfterSeconds === undefined ? {} : { retryAfter: result.retryAfterSeconds };
        connection.send('error', {
          error: result.error,
          ...retry,
          ...(requestId === undefined ? {} : { requestId }),
        });
      }
      return;
    }
    if (type === 'hello') {
      connection.identity.ghostId = ghostId;
      connection.send('hello', { ghostId, serverTime: ctx.now() });
      followBotChannel(ctx, connection, ghostId);
      // Its configuration (and, while the network is stopped, emergency_stop) right after the answer.
      await botConnected(ctx, ghostId, { id: connection.id, send: (t, p) => connection.send(t, p) });
    } else if (type === 'heartbeat') {
      connection.send('heartbeat', { serverTime: ctx.now() });
    } else if (type === 'config_ack') {
      await acknowledgeConfig(ctx, ghostId, payload as z.infer<typeof ConfigAckPayloadSchema>);
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

/** Each bot socket's subscriptions (its channel, its removal), ended when the socket closes. */
const botChannelSubscriptions = new WeakMap<RealtimeConnection, () => void>();

/**
 * Delivers what is published to this bot alone (its `config` frames) to its socket, on this
 * instance; and when the bot is removed from the fleet (on any instance), refuses it (4403).
 */
function followBotChannel(ctx: AppContext, connection: RealtimeConnection, ghostId: string): void {
  if (botChannelSubscriptions.has(connection)) return;
  const unsubscribe = ctx.bus.subscribe(botTopic(ghostId), (message) => {
    const parsed = BusMessageSchema.safeParse(message);
    if (parsed.success) connection.send(parsed.data.type, parsed.data.payload);
  });
  const unsubscribeRemoval =
    ctx.services.fleet.onRemoved(ghostId, () =>
      refuseBot(connection, CLOSE_CODES.botRemoved, { error: FLEET_TEXTS.removed }),
    ) ?? (() => {});
  botChannelSubscriptions.set(connection, () => {
    unsubscribe();
    unsubscribeRemoval();
  });
}

/** Scanner bots (bot token): the fleet's bot protocol (common/fleet.ts). */
const botProtocol: ClientProtocol = {
  channel: 'bots',
  replaceable: new Set(),
  handlers: Object.fromEntries(
    (Object.keys(BotMessageSchemas) as BotMessageType[]).map((type) => [type, botHandler(type)]),
  ),
  async onDisconnect({ ctx, connection }) {
    botChannelSubscriptions.get(connection)?.();
    botChannelSubscriptions.delete(connection);
    const { ghostId } = connection.identity;
    // Pushes to it now wait for its next hello (unless another socket of it has taken over). At
    // shutdown the database may already be closed: a socket left on record is replaced at the bot's
    // next hello, and counts for nothing once the fleet stops hearing from the bot.
    if (ghostId !== undefined) await botDisconnected(ctx, ghostId, connection.id).catch(() => {});
  },
  onInvalidPayload(type, answer, { connection }) {
    // In order with the frames before it: a hello still being handled names the socket first.
    connection.enqueue(async () => {
      if (!connection.isOpen) return;
      // A bad hello, or any frame before hello: the bot is refused (4400).
      if (type === 'hello' || connection.identity.ghostId === undefined) {
        refuseBot(connection, CLOSE_CODES.badHello, answer);
      } else {
        connection.send('error', answer);
      }
    });
  },
};

export const PROTOCOLS: Readonly<Record<ClientKind, ClientProtocol>> = {
  admin: adminProtocol,
  bot: botProtocol,
};
