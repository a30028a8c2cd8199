import type { FastifyBaseLogger, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { z } from 'zod';
import type { RealtimeConnection, SocketIdentity } from './connection.ts';
import type { EncodedFrame } from './frames.ts';

/*
 * What a feature hands the transport to speak with one kind of client (the model: Phoenix Channels).
 * The transport owns the sockets, frames, rate limits, heartbeats, backpressure and the bus; the
 * protocol owns who may connect, what they may send (with its schema and handler) and what they are
 * sent (with its schema). The transport knows no feature: features register with it (app.ts).
 */

/** An upgrade refused outright, with the status (and Retry-After) to answer, rather than passed on. */
export interface SocketRefusal {
  refused: { status: number; error: string; retryAfter?: string };
}

export const isSocketRefusal = (answer: SocketIdentity | SocketRefusal): answer is SocketRefusal =>
  'refused' in answer;

/** This instance's open sockets, as protocols see them. */
export interface Clients {
  count(kind: string): number;
  ofKind(kind: string): Iterable<RealtimeConnection>;
  /** One encoded frame to every socket of a kind (replaceable types coalesced per socket). */
  broadcast(kind: string, frame: EncodedFrame, except?: RealtimeConnection): void;
}

/** What a handler gets besides its payload. */
export interface HandlerEnv {
  connection: RealtimeConnection;
  clients: Clients;
  /** The `id` of the frame being handled, which its answers name as `requestId`. */
  requestId?: string;
  /** Sends this socket what is published to `topic` (publisher.toTopic), until it closes. */
  follow(topic: string): void;
  log: FastifyBaseLogger;
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

/** A frame refused for the sender's budget: dropped, answered with this error and Retry-After. */
export interface FrameRefusal {
  error: string;
  retryAfter: number;
}

export interface SocketProtocol {
  /** The client kind ('admin', 'bot'); its bus channel carries publisher.toAll(kind, …). */
  kind: string;
  /** The socket path it is reached on (several protocols may share one, tried in order). */
  path: string;
  /**
   * Recognises its kind of caller from the upgrade request (an identity), refuses it (a status and
   * error), or returns null to let the next protocol on the path try; nobody: 401.
   */
  authenticate(request: FastifyRequest): Promise<SocketIdentity | SocketRefusal | null>;
  /**
   * What the upgrade rate limit counts this request against: a key, null for not counted, undefined
   * to leave it to the next protocol (in the end: the caller's address).
   */
  upgradeLimitKey?(request: FastifyRequest): Promise<string | null | undefined>;
  /**
   * False: the path's upgrades are not counted against the transport's per-address limit (the
   * protocol limits them itself, in `preHandler`). Read from the first protocol on a path.
   */
  countsUpgrades?: boolean;
  /** Runs after authentication, before the upgrade (a protocol's own rate limit); its reply ends it. */
  preHandler?: preHandlerHookHandler[];
  /** True for a listen-only socket: what the client sends is ignored, unanswered. */
  ignoresMessages?: boolean;
  /** Incoming message type -> schema and handler. Anything else is answered with an error frame. */
  accepts: Readonly<Record<string, MessageHandler>>;
  /**
   * Outgoing message type -> payload schema. What the publisher sends is checked against it in
   * development and tests (not in production, for speed).
   */
  sends: Readonly<Record<string, z.ZodType>>;
  /** Types where only the newest copy matters: each socket gets at most one per 100 ms. */
  replaceable: ReadonlySet<string>;
  /**
   * Draws one frame from the sender's budget: null when it may go ahead, a refusal when it is
   * dropped, or 'per-socket' for the transport's own limit (MAX_MESSAGES_PER_SECOND).
   */
  admit?(connection: RealtimeConnection): FrameRefusal | null | 'per-socket';
  /** Runs once the socket is registered: the backfill, so a reload never shows an empty screen. */
  onConnect?(env: HandlerEnv): Promise<void>;
  /** Runs once the socket has closed and left the registry. */
  onDisconnect?(env: HandlerEnv): Promise<void>;
  /** Answers a frame whose payload failed its handler's schema (by default, the error frame). */
  onInvalidPayload?(type: string, answer: { error: string; requestId?: string }, env: HandlerEnv): void;
  /** Runs when the transport starts (wiring a feature's events to sockets); returns how to stop. */
  start?(clients: Clients, log: FastifyBaseLogger): () => void;
}
