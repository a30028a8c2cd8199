import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import { CLOSE_CODES, type RealtimeConnection } from '../../realtime/connection.ts';
import type { EncodedFrame } from '../../realtime/frames.ts';
import type { DiscoveryStream } from '../fleet/fleet.service.ts';
import type { DiscoveryFrames } from './discovery-frames.ts';
import { FEED_CLOSE_CODES, FEED_TEXTS, type Feed, type FeedTier } from './feed.service.ts';
import type { FeedSocketCaps } from './feed-socket-caps.ts';
import { HeldFinds } from './free-tier.ts';

/** Unread output a feed socket may hold; a client further behind is closed (it reconnects with since=). */
export const MAX_FEED_BUFFERED_BYTES = 1024 * 1024;
/** Close code for a client too slow to read what it is sent. */
export const SLOW_CLIENT_CLOSE = 4008;

export interface FeedSocketRequest {
  key?: string;
  hwid?: string;
  /** Resume: send what came after this cursor first. Absent: only finds from now on. */
  since?: number;
  ip: string;
}

/** What every feed socket of an instance shares. */
export interface FeedSocketDeps {
  feed: Feed;
  stream: DiscoveryStream;
  caps: FeedSocketCaps<FeedSocket>;
  ctx: AppContext;
  log: FastifyBaseLogger;
}

const findOf = (frames: DiscoveryFrames) => frames.discovery;

/**
 * One executor's feed socket (on the transport's one connection class, which pings it and drops it
 * when it stops answering): `{type: 'discovery', payload}` frames (the find plus `serverTime`) for every find its tier may see,
 * in stream order, after a `ready` frame `{tier, cursor}` once the key is checked (and, with since=,
 * the missed finds sent). A refused key gets an `error` frame, then the socket is closed. The tier is
 * checked again whenever the key changes (switched off, device revoked: the socket closes).
 */
export class FeedSocket {
  private tier: FeedTier | undefined;
  /** The key's expiry as last told to the client (ready, then key frames). */
  private keyExpiresAt: string | null = null;
  /** Finds that arrived before the tier was known and the backlog sent. */
  private pending: DiscoveryFrames[] | undefined = [];
  /** FREE: the 5–10M/s finds not yet released to it (free-tier.ts). */
  private held: HeldFinds<DiscoveryFrames> | undefined;
  private cursor = 0;
  private closed = false;

  constructor(
    private readonly connection: RealtimeConnection,
    private readonly request: FeedSocketRequest,
    private readonly deps: FeedSocketDeps,
  ) {
    void this.start().catch((err: unknown) => {
      deps.log.error({ err }, 'feed socket failed to start');
      this.refuse('The feed is unavailable right now: try again in a moment', CLOSE_CODES.goingAway);
    });
  }

  /**
   * A new find from the stream. The route hands every find to every open socket from the moment it
   * opened, so nothing accepted while the key is checked or the backlog read is missed.
   */
  receive(frames: DiscoveryFrames): void {
    if (this.pending) this.pending.push(frames);
    else this.deliver(frames);
  }

  get key(): string | undefined {
    return this.request.key;
  }

  private async start(): Promise<void> {
    const { feed, stream, ctx } = this.deps;
    const access = await feed.tierOf(this.request);
    if (this.closed) return;
    if (access.kind === 'refused') return this.refuse(access.error);
    this.tier = access.tier;
    this.keyExpiresAt = access.keyExpiresAt;
    this.keepWithinKeyCap();
    const { since } = this.request;
    if (this.tier === 'FREE') {
      await feed.readyForFree();
      if (this.closed) return;
      // What a free reader from the start would hold at the socket's first position (read in the
      // same step as `pending`, so a find is never both held already and still to be delivered).
      const from = since ?? (this.pending?.[0] ? this.pending[0].discovery.seq - 1 : undefined);
      this.held = new HeldFinds(feed.heldForFree(from), findOf);
    }
    if (since !== undefined) {
      // A resume: page through what the client missed, then what arrived while it was read.
      let after = since;
      for (;;) {
        const page = await stream.discoveriesAfter(after, 500);
        if (this.closed) return;
        for (const frames of feed.framesOf(page.discoveries)) this.deliver(frames);
        if (page.discoveries.length < 500 || page.cursor <= after) break;
        after = page.cursor;
      }
    }
    const pending = this.pending ?? [];
    this.pending = undefined;
    for (const frames of pending) this.deliver(frames);
    // From here on every find the tier may see is sent: the client knows its tier and position.
    this.connection.send('ready', {
      tier: this.tier,
      cursor: this.cursor,
      serverTime: new Date(ctx.now()).toISOString(),
      keyExpiresAt: this.keyExpiresAt,
    });
  }

  /** A key past FEED_SOCKETS_PER_KEY: its oldest sockets make way for this one. */
  private keepWithinKeyCap(): void {
    if (this.request.key === undefined) return;
    const { caps } = this.deps;
    for (const old of caps.keyAccepted(this, this.request.key)) {
      old.refuse(FEED_TEXTS.replaced(caps.limits.perKey), FEED_CLOSE_CODES.replaced);
    }
  }

  /**
   * Sends a find the tier may see, once, in order, after the held finds it releases (FREE); a
   * resume's overlap with live finds is skipped.
   */
  private deliver(frames: DiscoveryFrames): void {
    const { seq } = frames.discovery;
    if (this.closed || this.tier === undefined || seq <= this.cursor) return;
    this.cursor = seq;
    if (this.held) for (const released of this.held.pass(frames)) this.write(frames.frameReleasing(released));
    const frame = frames.frameFor(this.tier);
    if (frame !== null) this.write(frame);
  }

  private write(frame: EncodedFrame): void {
    if (this.closed || this.tier === undefined) return;
    if (this.connection.socket.bufferedAmount > MAX_FEED_BUFFERED_BYTES) {
      this.refuse('Too far behind: reconnect with since= your last seq', SLOW_CLIENT_CLOSE);
      return;
    }
    this.connection.deliver(frame);
    this.deps.ctx.services.metrics.feedDelivered('socket', this.tier, 1);
  }

  /** The key changed (or its expiry may have passed): check it again, closing the socket if refused. */
  async recheck(): Promise<void> {
    if (this.closed || this.tier !== 'PREMIUM') return;
    const access = await this.deps.feed.tierOf(this.request);
    if (access.kind === 'refused') return this.refuse(access.error);
    // A key turned FREE holds 5–10M/s finds from here on, as a free reader would.
    if (access.tier === 'FREE') this.held ??= new HeldFinds([], findOf);
    this.tier = access.tier;
    // A renewal moved the key's expiry: the script shows the new time left.
    if (access.keyExpiresAt !== this.keyExpiresAt) {
      this.keyExpiresAt = access.keyExpiresAt;
      this.connection.send('key', { keyExpiresAt: access.keyExpiresAt });
    }
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
    this.pending = undefined;
    this.held = undefined;
    this.deps.caps.close(this);
  }
}
