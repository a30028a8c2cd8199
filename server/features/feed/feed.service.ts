import type { FeedDiscovery, FeedResponse, PetDiscovery } from '../../../common/fleet.ts';
import type { AppContext } from '../../context.ts';
import type { DiscoveryStream } from '../fleet/fleet.service.ts';
import { ACCESS_TEXTS, LoaderAccess } from '../loader/loader-access.ts';
import type { PendingWrites } from '../security/pending-writes.ts';
import { DiscoveryFrames } from './discovery-frames.ts';
import { type HeldFinds, heldFinds, shownToFree } from './free-tier.ts';
import { RecentFinds } from './recent-finds.ts';

export type FeedTier = FeedResponse['tier'];

/** Discoveries one answer holds at most; a client behind by more pages through with the cursor. */
export const FEED_PAGE_SIZE = 100;
/** A read that starts at the present (no `since`) also gets the finds of this last stretch, for context. */
export const LIVE_CONTEXT_MS = 60_000;
/** The longest a long-poll may wait, in seconds (below common proxy idle timeouts of 30 s). */
export const MAX_FEED_WAIT_SECONDS = 25;

export const FEED_TEXTS = {
  hwidRequired: 'hwid is required with a key: pass &hwid= (or the X-Hardware-Id header)',
  addressFull: (max: number) =>
    `Too many feed sockets from this address: at most ${max} open at once. Close one, then connect again`,
  replaced: (max: number) =>
    `Replaced by a newer feed socket with this key (at most ${max} open at once): not reconnecting`,
} as const;

/** Close codes of /ws/feed besides the transport's (docs/rules-licensing.md, "The discovery feed"). */
export const FEED_CLOSE_CODES = {
  /** The caller's address holds FEED_SOCKETS_PER_ADDRESS feed sockets already (HTTP 429's number). */
  addressFull: 4429,
  /** A newer socket with the same key took this one's place (FEED_SOCKETS_PER_KEY): do not reconnect on your own. */
  replaced: 4410,
} as const;

export type FeedAccess =
  | { kind: 'granted'; tier: FeedTier; keyExpiresAt: string | null }
  | { kind: 'refused'; status: 400 | 401 | 403; error: string };

const FREE: FeedAccess = { kind: 'granted', tier: 'FREE', keyExpiresAt: null };

/** The stream's finds kept for the free tier's holding; read once at the first use after a start. */
const SEED_FINDS = 5000;

/**
 * What one read shows its tier of finds in stream order: PREMIUM everything; FREE what free-tier.ts
 * allows, holding 5–10M/s finds (and releasing them) as it goes. One view per read, fed in order.
 */
type TierView = (finds: PetDiscovery[]) => Promise<FeedDiscovery[]>;

/** A page of an answer; `behind`: the stream holds more after its cursor already. */
type Page = Omit<FeedResponse, 'serverTime' | 'keyExpiresAt'> & { behind: boolean };

/**
 * The discovery feed: who gets which tier (the loader's key and device checks, so a key opens the
 * feed exactly when it would open a premium script), and reads of the stream after a cursor, waiting
 * for the next find when asked to.
 */
export class Feed {
  private readonly access: LoaderAccess;
  /** Long-polls in progress, ended at once when the app closes. */
  private readonly waiting = new Set<() => void>();
  /** The server is stopping: a long poll answers with what there is rather than wait. */
  private stopping = false;
  /** The stream's last minutes, for what the free tier holds (free-tier.ts). */
  private readonly recent = new RecentFinds<DiscoveryFrames>((frames) => frames.discovery);
  private seeded: Promise<void> | undefined;

  constructor(
    private readonly ctx: AppContext,
    pending: PendingWrites,
    private readonly stream: () => DiscoveryStream,
  ) {
    this.access = new LoaderAccess(ctx, pending);
  }

  /**
   * Answers every long poll now, and any that starts later at once: the server is stopping, and
   * its listener waits for requests in flight (a poll's 25 s would outlast SHUTDOWN_TIMEOUT_MS).
   */
  endWaits(): void {
    this.stopping = true;
    for (const finish of [...this.waiting]) finish();
  }

  close(): void {
    this.endWaits();
    this.access.close();
  }

  /**
   * The tier of a caller. No key: FREE. A key must be usable (known, active, unexpired) and, unless
   * it is a FREE key, used from a device bound to it (bound on first use, up to its limit); a FREE
   * key gives what no key gives, so it binds nothing.
   */
  async tierOf(request: { key?: string; hwid?: string; ip: string }): Promise<FeedAccess> {
    if (request.key === undefined) return FREE;
    const decision = await this.access.check({ script: 'feed', ...request });
    if (decision.kind === 'granted') {
      const keyExpiresAt = decision.expiresAt === null ? null : new Date(decision.expiresAt).toISOString();
      return { kind: 'granted', tier: 'PREMIUM', keyExpiresAt };
    }
    // The loader would answer a bootstrap here; the feed's callers read their device id themselves.
    if (decision.kind === 'bootstrap')
      return { kind: 'refused', status: 400, error: FEED_TEXTS.hwidRequired };
    return this.refusedOrFree(decision.status, decision.message);
  }

  /** Whether the caller's key is known here as a usable PREMIUM key bound to `hwid` (LoaderAccess.holdsPremium). */
  holdsPremium(key: string, hwid: string | undefined): boolean {
    return this.access.holdsPremium(key, hwid);
  }

  /** The script key a caller's key stands for (a license key: the one it resolved to). */
  scriptKeyOf(key: string): string {
    return this.access.scriptKeyOf(key);
  }

  private refusedOrFree(status: 401 | 403, message: string): FeedAccess {
    // The loader refuses FREE keys premium scripts; the feed serves them the free tier.
    if (message === ACCESS_TEXTS.freeKey) return FREE;
    return { kind: 'refused', status, error: message };
  }

  /** A new find of the stream (every instance sees every find, in order), wrapped for the sockets. */
  remember(discovery: PetDiscovery): DiscoveryFrames {
    const frames = new DiscoveryFrames(discovery, this.ctx.now());
    this.recent.add(frames);
    return frames;
  }

  /** Finds read back from the stream (a resume), wrapped for a socket: the ones held are the kept ones. */
  framesOf(discoveries: PetDiscovery[]): DiscoveryFrames[] {
    const now = this.ctx.now();
    return discoveries.map((discovery) => new DiscoveryFrames(discovery, now));
  }

  /** Resolves once what the free tier holds can be read (heldForFree): at once but after a start. */
  async readyForFree(): Promise<void> {
    // What the stream kept from before the start, read once and merged with what came since.
    this.seeded ??= this.stream()
      .discoveriesAfter(Number.MAX_SAFE_INTEGER, SEED_FINDS)
      .then(({ discoveries }) => {
        for (const frames of this.framesOf(discoveries)) this.recent.add(frames);
      });
    await this.seeded;
  }

  /**
   * The 5–10M/s finds a free reader holds, not yet released, at stream position `at` (default: the
   * newest known), as one reading from the start would hold them there (free-tier.ts). Call
   * readyForFree first.
   */
  heldForFree(at?: number): DiscoveryFrames[] {
    return this.recent.heldAt(at ?? this.recent.head);
  }

  /** One read's view of the finds for its tier. */
  private viewOf(tier: FeedTier): TierView {
    if (tier === 'PREMIUM') return async (finds) => finds;
    let held: HeldFinds<PetDiscovery> | undefined;
    return async (finds) => {
      if (finds.length === 0) return [];
      if (!held) {
        const at = (finds[0]?.seq ?? 1) - 1;
        await this.readyForFree();
        held = heldFinds(this.heldForFree(at).map((frames) => frames.discovery));
      }
      return shownToFree(finds, held);
    };
  }

  /**
   * Discoveries after `since` the tier may see, oldest first, and the cursor to ask from next. With
   * `since` 'now', the read starts at the present: the finds of the last LIVE_CONTEXT_MS (newest
   * FEED_PAGE_SIZE at most) and the cursor at the head of the stream, never the retained backlog.
   * With `waitMs`, an answer that would be empty waits until a visible find arrives (answered at
   * once), the time is up, `signal` aborts (the client left) or the app closes. Every answer carries
   * the server's time.
   */
  async read(
    since: number | 'now',
    tier: FeedTier,
    waitMs: number,
    signal?: AbortSignal,
  ): Promise<Omit<FeedResponse, 'keyExpiresAt'>> {
    const stream = this.stream();
    const view = this.viewOf(tier);
    const first = () =>
      since === 'now' ? this.livePage(stream, tier, view) : this.page(stream, since, tier, view);
    if (waitMs <= 0 || this.stopping) {
      const { behind: _, ...page } = await first();
      return this.stamped(page);
    }

    // Subscribed before reading, so a find accepted between the read and the wait is not missed.
    const arrived: PetDiscovery[] = [];
    let wake = () => {};
    let over = false;
    const unsubscribe = stream.onDiscovery((discovery) => {
      arrived.push(discovery);
      wake();
    });
    // The time is up, the client left or the app closes: answer with what there is.
    const finish = () => {
      over = true;
      wake();
    };
    const timer = setTimeout(finish, waitMs);
    signal?.addEventListener('abort', finish, { once: true });
    this.waiting.add(finish);
    try {
      const { behind, ...page } = await first();
      // Behind by more than a page: answer now, so the next read goes on from the cursor.
      if (page.discoveries.length > 0 || behind) return this.stamped(page);
      let cursor = page.cursor;
      for (;;) {
        const fresh = arrived.splice(0).filter((d) => d.seq > cursor);
        if (fresh.length > 0) {
          cursor = Math.max(cursor, ...fresh.map((d) => d.seq));
          const visible = await view(fresh);
          if (visible.length > 0) return this.stamped({ discoveries: visible, cursor, tier });
          continue;
        }
        if (over || signal?.aborted) return this.stamped({ discoveries: [], cursor, tier });
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', finish);
      this.waiting.delete(finish);
      unsubscribe();
    }
  }

  private stamped(
    page: Omit<FeedResponse, 'serverTime' | 'keyExpiresAt'>,
  ): Omit<FeedResponse, 'keyExpiresAt'> {
    return { ...page, serverTime: new Date(this.ctx.now()).toISOString() };
  }

  private async page(stream: DiscoveryStream, since: number, tier: FeedTier, view: TierView): Promise<Page> {
    const { discoveries, cursor } = await stream.discoveriesAfter(since, FEED_PAGE_SIZE);
    return {
      discoveries: await view(discoveries),
      cursor,
      tier,
      behind: discoveries.length === FEED_PAGE_SIZE,
    };
  }

  /** The newest finds (of the last LIVE_CONTEXT_MS), oldest first, with the cursor at the head. */
  private async livePage(stream: DiscoveryStream, tier: FeedTier, view: TierView): Promise<Page> {
    // A cursor past the head reads as "older than what is kept": the newest page and the head cursor.
    const { discoveries, cursor } = await stream.discoveriesAfter(Number.MAX_SAFE_INTEGER, FEED_PAGE_SIZE);
    const from = this.ctx.now() - LIVE_CONTEXT_MS;
    const recent = discoveries.filter((d) => Date.parse(d.timestamp) >= from);
    return { discoveries: await view(recent), cursor, tier, behind: false };
  }
}
