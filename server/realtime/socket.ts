import type { IncomingMessage } from 'node:http';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { COALESCE_WINDOW_MS } from '../../common/realtime.ts';
import { CLOSE_CODES, RealtimeConnection, type SocketIdentity } from './connection.ts';
import { BusMessageSchema, describeIssue, encodeFrame, parseIncomingFrame } from './frames.ts';
import { type HandlerEnv, isSocketRefusal, type SocketProtocol, type SocketRefusal } from './protocol.ts';
import { kindChannel, SESSION_ENDED_CHANNEL, SessionEndedSchema } from './publisher.ts';
import type { Transport } from './transport.ts';

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
 * The socket routes: callers are authenticated before the upgrade (a stranger gets a plain 401 and
 * no socket), then speak JSON frames `{type, payload, id, timestamp}` to the protocol that
 * recognised them. Bus messages on a kind's channel reach every socket of that kind.
 */
export const realtimeRoutes: FastifyPluginAsync<{ transport: Transport }> = async (app, { transport }) => {
  const { bus, now } = transport.options;
  const registry = transport.connections;
  const identities = new WeakMap<IncomingMessage, { identity: SocketIdentity; protocol: SocketProtocol }>();

  const unsubscribes = transport.registered.map((protocol) =>
    bus.subscribe(kindChannel(protocol.kind), (message) => {
      const parsed = BusMessageSchema.safeParse(message);
      if (!parsed.success) {
        app.log.warn(
          { channel: kindChannel(protocol.kind) },
          'ignoring a bus message without {type, payload}',
        );
        return;
      }
      registry.broadcast(protocol.kind, encodeFrame(parsed.data.type, parsed.data.payload, now()));
    }),
  );
  // A logout closes that session's sockets at once, here and on every other instance, rather than
  // at the next liveness sweep (up to PING_INTERVAL_MS later).
  unsubscribes.push(
    bus.subscribe(SESSION_ENDED_CHANNEL, (message) => {
      const parsed = SessionEndedSchema.safeParse(message);
      if (!parsed.success) return;
      registry.closeSession(parsed.data.sessionId, CLOSE_CODES.sessionEnded, 'Logged out');
    }),
  );
  // A logout (or revocation) published while Redis was away never arrived: check every socket now.
  unsubscribes.push(bus.onResync(() => void registry.recheck(app.log)));
  const stopSweeping = registry.startSweeping(PING_INTERVAL_MS, app.log);
  for (const protocol of transport.registered) {
    if (protocol.start) unsubscribes.push(protocol.start(registry, app.log));
  }

  // The websocket plugin's preClose (app.ts) has already closed every socket with 1012, so clients
  // reconnect; this stops the timers and subscriptions and catches any socket opened since.
  app.addHook('onClose', async () => {
    stopSweeping();
    for (const unsubscribe of unsubscribes) unsubscribe();
    registry.closeAll(CLOSE_CODES.serviceRestart, 'Server restarting');
  });

  const paths = [...new Set(transport.registered.map((p) => p.path))];
  for (const path of paths) {
    const onPath = transport.registered.filter((p) => p.path === path);
    const first = onPath[0]!;
    const limit = {
      rateLimit: {
        max: UPGRADES_PER_MINUTE,
        timeWindow: '1 minute',
        // A protocol may count per client rather than per address (1,000 bots behind one NAT).
        keyGenerator: (request: FastifyRequest) =>
          upgradeLimitKey(onPath, request, transport.options.clientAddress),
        allowList: (_request: FastifyRequest, key: string) => key === NOT_COUNTED,
      },
    };
    app.get(
      path,
      {
        websocket: true,
        ...(first.countsUpgrades === false ? {} : { config: limit }),
        ...(first.preHandler ? { preHandler: first.preHandler } : {}),
        // preValidation, not onRequest: the route's rate limit (an onRequest hook) must count refused
        // attempts too, so it has to run first.
        preValidation: async (request, reply) => {
          const found = await authenticate(onPath, request);
          if (!found) return reply.status(401).send({ error: AUTH_REQUIRED_TEXT });
          if (isSocketRefusal(found.answer)) {
            const { status, error, retryAfter } = found.answer.refused;
            if (retryAfter !== undefined) reply.header('retry-after', retryAfter);
            return reply.status(status).send({ error });
          }
          identities.set(request.raw, { identity: found.answer, protocol: found.protocol });
        },
      },
      (socket, request) => {
        const known = identities.get(request.raw);
        if (!known) {
          // Unreachable through the hook above; kept so a misrouted upgrade can never get a session.
          socket.close(CLOSE_CODES.sessionEnded, AUTH_REQUIRED_TEXT);
          return;
        }
        const { identity, protocol } = known;
        const connection = new RealtimeConnection(socket, identity, {
          now,
          replaceable: protocol.replaceable,
          coalesceWindowMs: COALESCE_WINDOW_MS,
          maxMessagesPerSecond: MAX_MESSAGES_PER_SECOND,
          maxBufferedBytes: MAX_BUFFERED_BYTES,
          log: request.log,
          checkOutgoing: transport.outgoingCheckFor(protocol),
        });
        const followed = new Map<string, () => void>();
        const env: HandlerEnv = {
          connection,
          clients: registry,
          log: request.log,
          follow(topic) {
            if (followed.has(topic)) return;
            followed.set(
              topic,
              bus.subscribe(topic, (message) => {
                const parsed = BusMessageSchema.safeParse(message);
                if (parsed.success) connection.send(parsed.data.type, parsed.data.payload);
              }),
            );
          },
        };
        registry.add(connection);

        // Listeners go on synchronously: a message sent right after the handshake must not be lost.
        if (!protocol.ignoresMessages) {
          socket.on('message', (data, isBinary) => receive(protocol, env, data, isBinary));
        }
        socket.on('pong', () => {
          connection.isAlive = true;
        });
        socket.on('close', () => {
          registry.remove(connection);
          connection.dispose();
          for (const unfollow of followed.values()) unfollow();
          followed.clear();
          if (protocol.onDisconnect) connection.enqueue(() => protocol.onDisconnect!(env));
        });
        if (protocol.onConnect) connection.enqueue(() => protocol.onConnect!(env));
      },
    );
  }
};

/** The first protocol on the path to recognise (or refuse) the caller. */
async function authenticate(
  protocols: readonly SocketProtocol[],
  request: FastifyRequest,
): Promise<{ answer: SocketIdentity | SocketRefusal; protocol: SocketProtocol } | null> {
  for (const protocol of protocols) {
    const answer = await protocol.authenticate(request);
    if (answer) return { answer, protocol };
  }
  return null;
}

/** An upgrade a protocol does not count (see SocketProtocol.upgradeLimitKey). */
const NOT_COUNTED = 'not-counted';

async function upgradeLimitKey(
  protocols: readonly SocketProtocol[],
  request: FastifyRequest,
  clientAddress: (request: FastifyRequest) => string,
): Promise<string> {
  for (const protocol of protocols) {
    const key = await protocol.upgradeLimitKey?.(request);
    if (key === null) return NOT_COUNTED;
    if (key !== undefined) return `${protocol.kind}:${key}`;
  }
  return `ip:${clientAddress(request)}`;
}

function receive(
  protocol: SocketProtocol,
  env: HandlerEnv,
  data: Buffer | ArrayBuffer | Buffer[],
  isBinary: boolean,
): void {
  const { connection } = env;
  // A protocol may draw on its own budget (a named bot's, shared with POST /api/bot/events); every
  // other socket draws on the per-socket limit.
  const admitted = protocol.admit ? protocol.admit(connection) : 'per-socket';
  if (admitted === 'per-socket') {
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
  if (admitted !== null && admitted !== 'per-socket') {
    // Dropped; the answer names the frame when it had an id, so the sender knows what to send again.
    const id = parsed.ok ? parsed.frame.id : undefined;
    connection.send('error', {
      error: admitted.error,
      retryAfter: admitted.retryAfter,
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
  const handler = Object.hasOwn(protocol.accepts, type) ? protocol.accepts[type] : undefined;
  if (!handler) {
    connection.send('error', { error: `Unknown message type: ${type}`, ...requestId });
    return;
  }
  const checked = handler.schema.safeParse(payload);
  if (!checked.success) {
    const answer = { error: `Invalid ${type} payload: ${describeIssue(checked.error)}`, ...requestId };
    // A protocol may refuse the sender for it (a bot's bad hello); by default it is answered.
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
