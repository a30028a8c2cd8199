import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import { Coalescer } from './coalescer.ts';
import { type EncodedFrame, encodeFrame } from './frames.ts';
import { MessageRateLimiter } from './rate-limiter.ts';
import { sendInTurn } from './turn-writes.ts';

/** Who is on the other end of a socket ('admin', 'bot', 'feed'): each kind speaks its own protocol. */
export type ClientKind = string;

export interface SocketIdentity {
  kind: ClientKind;
  /** An admin socket's session (the session row's id), so logging out closes its sockets at once. */
  sessionId?: string;
  /** The client's own name once its protocol has learned it (a bot's Ghost_ID, from its hello). */
  name?: string;
  /** Re-checked on every liveness sweep; false closes the socket (a logged-out or expired session). */
  stillValid(): Promise<boolean>;
}

export interface ConnectionOptions {
  /** The app's clock, for frame timestamps. */
  now: () => number;
  /** Types where only the newest copy matters; coalesced to one per `coalesceWindowMs`. */
  replaceable: ReadonlySet<string>;
  coalesceWindowMs: number;
  maxMessagesPerSecond: number;
  /** A client that lets this much pile up unread is too slow to serve; it is dropped and reconnects. */
  maxBufferedBytes: number;
  log: FastifyBaseLogger;
  /**
   * Checks a frame against its protocol's schema for its type before it leaves (development and
   * tests; absent in production, for speed): a frame no client could read fails where it is built.
   */
  checkOutgoing?: (type: string, payload: unknown) => void;
}

/** Frames checked already: a broadcast frame is one object, checked once however many sockets get it. */
const checkedFrames = new WeakSet<EncodedFrame>();

/** Close codes the server uses besides the standard ones. */
export const CLOSE_CODES = {
  goingAway: 1001,
  /** The server is restarting (a deploy, SIGTERM): reconnect, to another instance where there is one. */
  serviceRestart: 1012,
  policyViolation: 1008,
  messageTooBig: 1009,
  /** A bot's hello was refused (invalid, or naming another bot than the socket's). Fix the bot, then reconnect. */
  badHello: 4400,
  sessionEnded: 4401,
  /** The administrator removed this bot from the fleet. */
  botRemoved: 4403,
  /** The fleet holds FLEET_MAX_BOTS bots already. */
  fleetFull: 4409,
} as const;

/** One open socket: its identity, outgoing coalescing, incoming rate limit and ordered handling. */
export class RealtimeConnection {
  readonly id = randomUUID();
  /** Cleared by each liveness sweep, set again by the pong. */
  isAlive = true;
  readonly limiter: MessageRateLimiter;
  private readonly coalescer: Coalescer<EncodedFrame>;
  private handling: Promise<void> = Promise.resolve();

  constructor(
    readonly socket: WebSocket,
    readonly identity: SocketIdentity,
    private readonly options: ConnectionOptions,
  ) {
    this.limiter = new MessageRateLimiter(options.maxMessagesPerSecond, 1000);
    this.coalescer = new Coalescer((_type, frame) => this.write(frame), options.coalesceWindowMs);
  }

  get kind(): ClientKind {
    return this.identity.kind;
  }

  get isOpen(): boolean {
    return this.socket.readyState === this.socket.OPEN;
  }

  /** Sends a message now, bypassing coalescing (answers, errors, events where every item counts). */
  send(type: string, payload: unknown): void {
    this.options.checkOutgoing?.(type, payload);
    this.write(encodeFrame(type, payload, this.options.now()));
  }

  /** Sends an already encoded frame, coalescing replaceable types. */
  deliver(frame: EncodedFrame): void {
    const check = this.options.checkOutgoing;
    if (check && !checkedFrames.has(frame)) {
      check(frame.type, frame.payload);
      checkedFrames.add(frame);
    }
    if (this.options.replaceable.has(frame.type)) this.coalescer.push(frame.type, frame);
    else this.write(frame);
  }

  /** Like `send`, but replaceable types are coalesced. */
  deliverMessage(type: string, payload: unknown): void {
    this.deliver(encodeFrame(type, payload, this.options.now()));
  }

  /** Runs incoming-message work one at a time, in arrival order; a failure never stops the chain. */
  enqueue(work: () => Promise<void>): void {
    this.handling = this.handling.then(work).catch((err: unknown) => {
      this.options.log.error({ err, connection: this.id }, 'socket message handling failed');
    });
  }

  /** Resolves once everything queued so far has been handled. */
  idle(): Promise<void> {
    return this.handling;
  }

  close(code: number, reason: string): void {
    this.coalescer.dispose();
    if (this.socket.readyState === this.socket.OPEN || this.socket.readyState === this.socket.CONNECTING) {
      this.socket.close(code, reason);
    }
  }

  terminate(): void {
    this.coalescer.dispose();
    this.socket.terminate();
  }

  /** Stops pending coalesced deliveries; called once the socket has closed. */
  dispose(): void {
    this.coalescer.dispose();
  }

  private write(frame: EncodedFrame): void {
    if (!this.isOpen) return;
    if (this.socket.bufferedAmount > this.options.maxBufferedBytes) {
      this.options.log.warn({ connection: this.id }, 'dropping a socket that does not read its messages');
      this.terminate();
      return;
    }
    sendInTurn(this.socket, frame.bytes);
  }
}
