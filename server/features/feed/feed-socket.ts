import type { FastifyBaseLogger } from 'fastify';
import type { PetDiscovery } from '../../../common/fleet.ts';
import type { AppContext } from '../../context.ts';
import { CLOSE_CODES, type RealtimeConnection } from '../../realtime/connection.ts';
import { type EncodedFrame, encodeFrame } from '../../realtime/frames.ts';
import type { DiscoveryStream } from '../fleet/fleet.service.ts';
import { discoveryForTier, type Feed, type FeedTier } from './feed.service.ts';

/** Unread output a feed socket may hold; a client further behind is closed (it reconnects with since=). */
export const MAX_FEED_BUFFERED_BYTES = 1024 * 1024;
/** Close code for a client too slow to read what it is sent. */
export const SLOW_CLIENT_CLOSE = 4008;

/**
 * A find's `discovery` frame for each tier, serialised at most once per tier however many sockets
 * receive it (the feed socket of 2,000 executors must not stringify a find 2,000 times).
 */
export class DiscoveryFrames {
  private readonly frames = new Map<FeedTier, EncodedFrame | null>();

  constructor(
    readonly discovery: PetDiscovery,
    private readonly now: number,
  ) {}

  /** The frame for the tier (its UTF-8 bytes shared by every socket), or null when the tier may not see this find. */
  frameFor(tier: FeedTier): EncodedFrame | null {
    let frame = this.frames.get(tier);
    if (frame === undefined) {
      const shown = discoveryForTier(this.discovery, tier);
      // The server's time rides with each find, so a client judges its age by the server's clock.
      frame = shown
        ? encodeFrame('discovery', { ...shown, serverTime: new Date(this.now).toISOString() }, this.now)
        : null;
      this.frames.set(tier, frame);
    }
    return frame;
  }
}

export interface FeedSocketRequest {
  key?: string;
  hwid?: string;
  /** Resume: send what came after this cursor first. Absent: only finds from now on. */
  since?: number;
  ip: string;
}

/**
 * One executor's feed socket (on the transport's one connection class, which pings it and drops it
 * when it stops answering): `{type: 'discovery', payload}` frames (the find plus `serverTime`) for every find its tier may see,
 * in stream order, after a `ready` frame `{tier, cursor}` once the key is checked (and, with since=,
 * the missed finds sent). A refused key gets an `error` frame, then the socket is closed. The tier is
 * checked again whenever the key changes (switched off, device revoked: the socket closes).
 */
export class FeedSocket {
  private tier: FeedTier | undefined;
  /** Finds that arrived before the tier was known and the backlog sent. */
  private held: DiscoveryFrames[] | undefined = [];
  private cursor = 0;
  private closed = false;

  constructor(
    private readonly connection: RealtimeConnection,
    private readonly request: FeedSocketRequest,
    private readonly feed: Feed,
    stream: DiscoveryStream,
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
  ) {
    void this.start(stream).catch((err: unknown) => {
      this.log.error({ err }, 'feed socket failed to start');
      this.refuse('The feed is unavailable right now: try again in a moment', CLOSE_CODES.goingAway);
    });
  }

  /**
   * A new find from the stream. The route hands every find to every open socket from the moment it
   * opened, so nothing accepted while the key is checked or the backlog read is missed.
   */
  receive(frames: DiscoveryFrames): void {
    if (this.held) this.held.push(frames);
    else this.deliver(frames);
  }

  get key(): string | undefined {
    return this.request.key;
  }

  private async start(stream: DiscoveryStream): Promise<void> {
    const access = await this.feed.tierOf(this.request);
    if (this.closed) return;
    if (access.kind === 'refused') return this.refuse(access.error);
    this.tier = access.tier;
    if (this.request.since !== undefined) {
      // A resume: page through what the client missed, then what arrived while it was read.
      let since = this.request.since;
      for (;;) {
        const page = await stream.discoveriesAfter(since, 500);
        if (this.closed) return;
        const now = this.ctx.now();
        for (const discovery of page.discoveries) this.deliver(new DiscoveryFrames(discovery, now));
        if (page.discoveries.length < 500 || page.cursor <= since) break;
        since = page.cursor;
      }
    }
    const held = this.held ?? [];
    this.held = undefined;
    for (const frames of held) this.deliver(frames);
    // From here on every find the tier may see is sent: the client knows its tier and position.
    this.send('ready', {
      tier: this.tier,
      cursor: this.cursor,
      serverTime: new Date(this.ctx.now()).toISOString(),
    });
  }

  /** Sends a find the tier may see, once, in order; a resume's overlap with live finds is skipped. */
  private deliver(frames: DiscoveryFrames): void {
    const { seq } = frames.discovery;
    if (this.closed || this.tier === undefined || seq <= this.cursor) return;
    this.cursor = seq;
    const frame = frames.frameFor(this.tier);
    if (frame === null) return;
    if (this.connection.socket.bufferedAmount > MAX_FEED_BUFFERED_BYTES) {
      this.refuse('Too far behind: reconnect with since= your last seq', SLOW_CLIENT_CLOSE);
      return;
    }
    this.connection.deliver(frame);
    this.ctx.services.metrics.feedDelivered('socket', this.tier, 1);
  }

  private send(type: string, payload: unknown): void {
    this.connection.send(type, payload);
  }

  /** The key changed (or its expiry may have passed): check it again, closing the socket if refused. */
  async recheck(): Promise<void> {
    if (this.closed || this.tier !== 'PREMIUM') return;
    const access = await this.feed.tierOf(this.request);
    if (access.kind === 'refused') this.refuse(access.error);
    else this.tier = access.tier;
  }

  refuse(error: string, code: number = CLOSE_CODES.policyViolation): void {
    if (this.closed) return;
    if (this.connection.isOpen) {
      this.connection.send('error', { error });
      this.connection.close(code, error.slice(0, 120));
    }
    this.dispose();
  }

  dispose(): void {
    if (this.closed) return;
    this.closed = true;
    this.held = undefined;
  }
}
