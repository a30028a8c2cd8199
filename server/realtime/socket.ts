import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { GhostIdSchema } from '../../common/fleet.ts';
import { COALESCE_WINDOW_MS, SOCKET_PATH } from '../../common/realtime.ts';
import type { AppContext, FeatureOptions } from '../context.ts';
import { refuseOverBudget } from '../features/fleet/bot-event-budget.ts';
import { botTokenOf, judgeBotToken } from '../features/fleet/bot-token.ts';
import { limitedClientOf } from '../features/security/client-address.ts';
import { authenticateSocket, isSocketRefusal, upgradeGhostIdParam } from './authenticate.ts';
import { CLOSE_CODES, type ClientKind, RealtimeConnection, type SocketIdentity } from './connection.ts';
import { ConnectionRegistry } from './connection-registry.ts';
import { connectFleetToDashboards } from './fleet-stream.ts';
import { BusMessageSchema, describeIssue, encodeFrame, parseIncomingFrame } from './frames.ts';
import { type ClientProtocol, type HandlerEnv, PROTOCOLS } from './handlers.ts';
import { SESSION_ENDED_CHANNEL, SessionEndedSchema } from './publisher.ts';
import { readSystemHealth } from './system-health.ts';

/** A ws ping this often; a socket that has not answered the previous one is dropped. */
export const PING_INTERVAL_MS = 30_000;
/** More than this from one socket is a flood: the rest of the second is dropped. */
export const MAX_MESSAGES_PER_SECOND = 50;
/** Unread output a socket may hold before it counts as dead weight. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** Upgrade attempts per IP per minute (each costs a session lookup). */
const UPGRADES_PER_MINUTE = 120;

export const AUTH_REQUIRED_TEXT = 'Authentication required';

/**
 * GET /ws: the one socket endpoint. Callers are authenticated before the upgrade (a stranger gets a
 * plain 401 and no socket), then speak JSON frames `{type, payload, id, timestamp}` to the protocol
 * of their kind (handlers.ts). Bus messages on a kind's channel reach every socket of that kind.
 */
export const realtimeRoutes: FastifyPluginAsyncZod<FeatureOptions> = async (app, { ctx }) => {
  const registry = new ConnectionRegistry();
  const identities = new WeakMap<IncomingMessage, SocketIdentity>();
  const resumes = new WeakMap<IncomingMessage, number>();

  const unsubscribes = (Object.entries(PROTOCOLS) as Array<[ClientKind, ClientProtocol]>).map(
    ([kind, protocol]) =>
      ctx.bus.subscribe(protocol.channel, (message) => {
        const parsed = BusMessageSchema.safeParse(message);
        if (!parsed.success) {
          app.log.warn({ channel: protocol.channel }, 'ignoring a bus message without {type, payload}');
          return;
        }
        registry.broadcast(kind, encodeFrame(parsed.data.type, parsed.data.payload, ctx.now()));
      }),
  );
  // A logout closes that session's dashboards at once, here and on every other instance, rather than
  // at the next liveness sweep (up to PING_INTERVAL_MS later).
  unsubscribes.push(
    ctx.bus.subscribe(SESSION_ENDED_CHANNEL, (message) => {
      const parsed = SessionEndedSchema.safeParse(message);
      if (!parsed.success) return;
      registry.closeSession(parsed.data.sessionId, CLOSE_CODES.sessionEnded, 'Logged out');
    }),
  );
  const stopSweeping = registry.startSweeping(PING_INTERVAL_MS, app.log);
  unsubscribes.push(connectFleetToDashboards(ctx, registry));
  // The fleet's counts are part of system_health: dashboards get it again when they change.
  unsubscribes.push(
    ctx.services.fleet.onStateChange(() => {
      if (registry.count('admin') === 0) return;
      void readSystemHealth(ctx, registry.count('admin')).then(
        (health) => registry.broadcast('admin', encodeFrame('system_health', health, ctx.now())),
        (err: unknown) => app.log.warn({ err }, 'could not read system health'),
      );
    }) ?? (() => {}),
  );

  // The websocket plugin's preClose (app.ts) has already closed every socket with 1001, so clients
  // reconnect; this stops the timers and subscriptions and catches any socket opened since.
  app.addHook('onClose', async () => {
    stopSweeping();
    for (const unsubscribe of unsubscribes) unsubscribe();
    registry.closeAll(CLOSE_CODES.goingAway, 'Server shutting down');
  });

  app.get(
    SOCKET_PATH,
    {
      websocket: true,
      config: {
        rateLimit: {
          max: UPGRADES_PER_MINUTE,
          timeWindow: '1 minute',
          // Bots are limited per bot, not per address: 1,000 bots behind one NAT must all connect.
          keyGenerator: (request) => upgradeLimitKey(ctx, request),
          allowList: (_request, key) => key === UNNAMED_BOT_KEY,
        },
      },
      // preValidation, not onRequest: the route's rate limit (an onRequest hook) must count refused
      // attempts too, so it has to run first.
      preValidation: async (request, reply) => {
        const identity = await authenticateSocket(ctx, request);
        if (!identity) return reply.status(401).send({ error: AUTH_REQUIRED_TEXT });
        if (isSocketRefusal(identity)) {
          const { status, error, retryAfter } = identity.refused;
          if (retryAfter !== undefined) reply.header('retry-after', retryAfter);
          return reply.status(status).send({ error });
        }
        const ghostId = identity.kind === 'bot' ? upgradeGhostIdParam(request) : undefined;
        if (ghostId !== undefined) {
          const error = upgradeGhostIdError(ghostId);
          if (error) return reply.status(400).send({ error });
        }
        const since = (request.query as Record<string, unknown> | undefined)?.since;
        if (since !== undefined) {
          if (typeof since !== 'string' || !/^\d{1,15}$/.test(since)) {
            return reply.status(400).send({ error: 'since must be a whole number (the last seq you have)' });
          }
          resumes.set(request.raw, Number(since));
        }
        identities.set(request.raw, identity);
      },
    },
    (socket, request) => {
      const identity = identities.get(request.raw);
      if (!identity) {
        // Unreachable through the hook above; kept so a misrouted upgrade can never get a session.
        socket.close(CLOSE_CODES.sessionEnded, AUTH_REQUIRED_TEXT);
        return;
      }
      const protocol = PROTOCOLS[identity.kind];
      const connection = new RealtimeConnection(socket, identity, {
        now: ctx.now,
        replaceable: protocol.replaceable,
        coalesceWindowMs: COALESCE_WINDOW_MS,
        maxMessagesPerSecond: MAX_MESSAGES_PER_SECOND,
        maxBufferedBytes: MAX_BUFFERED_BYTES,
        log: request.log,
      });
      const since = resumes.get(request.raw);
      const env: HandlerEnv = { ctx, registry, connection, ...(since === undefined ? {} : { since }) };
      registry.add(connection);

      // Listeners go on synchronously: a message sent right after the handshake must not be lost.
      socket.on('message', (data, isBinary) => receive(protocol, env, data, isBinary));
      socket.on('pong', () => {
        connection.isAlive = true;
      });
      socket.on('close', () => {
        registry.remove(connection);
        connection.dispose();
        if (protocol.onDisconnect) connection.enqueue(() => protocol.onDisconnect!(env));
      });
      if (protocol.onConnect) connection.enqueue(() => protocol.onConnect!(env));
    },
  );
};

/** Upgrades with a valid bot token but no `?ghostId=`: not counted (see upgradeLimitKey). */
const UNNAMED_BOT_KEY = 'bot';

/** What is wrong with an upgrade's `?ghostId=`, or null when it names a bot. */
function upgradeGhostIdError(ghostId: string | null): string | null {
  if (ghostId === null) return 'ghostId must be given once';
  const checked = GhostIdSchema.safeParse(ghostId);
  if (!checked.success) return describeIssue(checked.error);
  return checked.data === ghostId ? null : 'ghostId must not start or end with spaces';
}

/**
 * What the upgrade limit counts an upgrade against: a valid bot token counts against the bot its
 * `?ghostId=` names (whose hello must then match), or not at all without one; anything else (an
 * admin, a stranger, a wrong token) against its address, IPv6 per /64.
 */
async function upgradeLimitKey(ctx: AppContext, request: FastifyRequest): Promise<string> {
  if (botTokenOf(request) !== undefined) {
    const ghostId = upgradeGhostIdParam(request);
    const named = ghostId === undefined || upgradeGhostIdError(ghostId) === null;
    if (named && (await judgeBotToken(ctx, request)).ok) {
      return ghostId === undefined || ghostId === null ? UNNAMED_BOT_KEY : `bot:${ghostId}`;
    }
  }
  return `ip:${limitedClientOf(request)}`;
}

function receive(
  protocol: ClientProtocol,
  env: HandlerEnv,
  data: Buffer | ArrayBuffer | Buffer[],
  isBinary: boolean,
): void {
  const { connection, ctx } = env;
  // A bot named by its hello draws on its budget (shared with POST /api/bot/events); every other
  // socket, and a bot's before its hello, on the per-socket limit.
  const ghostId = connection.kind === 'bot' ? connection.identity.ghostId : undefined;
  const overBudget = ghostId === undefined ? null : refuseOverBudget(ctx, ghostId, 1);
  if (ghostId === undefined) {
    const { accepted, firstRejection } = connection.limiter.take();
    if (!accepted) {
      if (firstRejection) {
        connection.send('error', {
          error: `Too many messages: at most ${MAX_MESSAGES_PER_SECOND} per second; the rest are dropped`,
        });
      }
      return;
    }
  }
  const parsed = parseIncomingFrame(data, isBinary);
  if (overBudget) {
    // Dropped; the answer names the frame when it had an id, so the bot knows what to send again.
    const id = parsed.ok ? parsed.frame.id : undefined;
    connection.send('error', {
      error: overBudget.frameError,
      retryAfter: Number(overBudget.retryAfter),
      ...(id === undefined ? {} : { requestId: id }),
    });
    return;
  }
  if (!parsed.ok) {
    connection.send('error', { error: parsed.error });
    return;
  }
  const { type, payload, id } = parsed.frame;
  const requestId = id === undefined ? {} : { requestId: id };
  const handler = Object.hasOwn(protocol.handlers, type) ? protocol.handlers[type] : undefined;
  if (!handler) {
    connection.send('error', { error: `Unknown message type: ${type}`, ...requestId });
    return;
  }
  const checked = handler.schema.safeParse(payload);
  if (!checked.success) {
    const answer = { error: `Invalid ${type} payload: ${describeIssue(checked.error)}`, ...requestId };
    // The bot protocol refuses a bad hello (handlers.ts); other protocols answer and go on.
    if (protocol.onInvalidPayload) protocol.onInvalidPayload(type, answer, env);
    else connection.send('error', answer);
    return;
  }
  connection.enqueue(async () => {
    try {
      await handler.handle(checked.data, id === undefined ? env : { ...env, requestId: id });
    } catch (err) {
      env.connection.send('error', { error: `Could not handle ${type}`, ...requestId });
      throw err;
    }
  });
}
