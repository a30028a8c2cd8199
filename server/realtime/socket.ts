import type { IncomingMessage } from 'node:http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { COALESCE_WINDOW_MS, SOCKET_PATH } from '../../common/realtime.ts';
import type { FeatureOptions } from '../context.ts';
import { fleetOf } from '../features/fleet/fleet.service.ts';
import { authenticateSocket } from './authenticate.ts';
import { CLOSE_CODES, type ClientKind, RealtimeConnection, type SocketIdentity } from './connection.ts';
import { ConnectionRegistry } from './connection-registry.ts';
import { connectFleetToDashboards } from './fleet-stream.ts';
import { BusMessageSchema, describeIssue, encodeFrame, parseIncomingFrame } from './frames.ts';
import { type ClientProtocol, type HandlerEnv, PROTOCOLS } from './handlers.ts';
import { SESSION_ENDED_CHANNEL, SessionEndedSchema } from './publish.ts';
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
    fleetOf(ctx)?.onStateChange(() => {
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
      config: { rateLimit: { max: UPGRADES_PER_MINUTE, timeWindow: '1 minute' } },
      // preValidation, not onRequest: the route's rate limit (an onRequest hook) must count refused
      // attempts too, so it has to run first.
      preValidation: async (request, reply) => {
        const identity = await authenticateSocket(ctx, request);
        if (!identity) return reply.status(401).send({ error: AUTH_REQUIRED_TEXT });
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

function receive(
  protocol: ClientProtocol,
  env: HandlerEnv,
  data: Buffer | ArrayBuffer | Buffer[],
  isBinary: boolean,
): void {
  const { connection } = env;
  const { accepted, firstRejection } = connection.limiter.take();
  if (!accepted) {
    if (firstRejection) {
      connection.send('error', {
        error: `Too many messages: at most ${MAX_MESSAGES_PER_SECOND} per second; the rest are dropped`,
      });
    }
    return;
  }
  const parsed = parseIncomingFrame(data, isBinary);
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
    connection.send('error', {
      error: `Invalid ${type} payload: ${describeIssue(checked.error)}`,
      ...requestId,
    });
    return;
  }
  connection.enqueue(async () => {
    try {
      await handler.handle(checked.data, env);
    } catch (err) {
      env.connection.send('error', { error: `Could not handle ${type}`, ...requestId });
      throw err;
    }
  });
}
