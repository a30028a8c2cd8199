import type { FeedResponse, PetDiscovery } from '../../../common/fleet.ts';
import { freeTierShare } from '../../../common/pet-value.ts';
import type { AppContext } from '../../context.ts';
import type { DiscoveryStream } from '../fleet/fleet.service.ts';
import { ACCESS_TEXTS, LoaderAccess } from '../loader/loader-access.ts';
import type { PendingWrites } from '../security/pending-writes.ts';

export type FeedTier = FeedResponse['tier'];

/** Discoveries one answer holds at most; a client behind by more pages through with the cursor. */
export const FEED_PAGE_SIZE = 100;
/** A read that starts at the present (no `since`) also gets the finds of this last stretch, for context. */
export const LIVE_CONTEXT_MS = 60_000;
/** The longest a long-poll may wait, in seconds (below common proxy idle timeouts of 30 s). */
export const MAX_FEED_WAIT_SECONDS = 25;

export const FEED_TEXTS = {
  hwidRequired: 'hwid is required with a key: pass &hwid= (or the X-Hardware-Id header)',
} as const;

export type FeedAccess =
  | { kind: 'granted'; tier: FeedTier }
  | { kind: 'refused'; status: 400 | 401 | 403; error: string };

const FREE: FeedAccess = { kind: 'granted', tier: 'FREE' };
const PREMIUM: FeedAccess = { kind: 'granted', tier: 'PREMIUM' };

/**
 * What a caller of the tier may see of a discovery: FREE callers nothing at 10M/s and up or whose
 * value does not parse, and no join data (jobid) at 5M/s and up; PREMIUM everything. Decided from
 * the value text, not `numericValue` (which is 0 for a value that does not parse, for display).
 * Enforced here, never left to the script.
 */
export function discoveryForTier(discovery: PetDiscovery, tier: FeedTier): PetDiscovery | undefined {
  if (tier === 'PREMIUM') return discovery;
  switch (freeTierShare(discovery.value)) {
    case 'none':
      return undefined;
    case 'withoutJoinData':
      return { ...discovery, jobid: null };
    case 'all':
      return discovery;
  }
}

function visibleTo(discoveries: PetDiscovery[], tier: FeedTier): PetDiscovery[] {
  const visible: PetDiscovery[] = [];
  for (const discovery of discoveries) {
    const shown = discoveryForTier(discovery, tier);
    if (shown) visible.push(shown);
  }
  return visible;
}

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
    if (decision.kind === 'granted') return PREMIUM;
    // The loader would answer a bootstrap here; the feed's callers read their device id themselves.
    if (decision.kind === 'bootstrap')
      return { kind: 'refused', status: 400, error: FEED_TEXTS.hwidRequired };
    return this.refusedOrFree(decision.status, decision.message);
  }

  private refusedOrFree(status: 401 | 403, message: string): FeedAccess {
    // The loader refuses FREE keys premium scripts; the feed serves them the free tier.
    if (message === ACCESS_TEXTS.freeKey) return FREE;
    return { kind: 'refused', status, error: message };
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
  ): Promise<FeedResponse> {
    const stream = this.stream();
    const first = () => (since === 'now' ? this.livePage(stream, tier) : this.page(stream, since, tier));
    if (waitMs <= 0 || this.stopping) return this.stamped(await first());

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
      const page = await first();
      if (page.discoveries.length > 0) return this.stamped(page);
      let cursor = page.cursor;
      for (;;) {
        const fresh = arrived.splice(0).filter((d) => d.seq > cursor);
        if (fresh.length > 0) {
          cursor = Math.max(cursor, ...fresh.map((d) => d.seq));
          const visible = visibleTo(fresh, tier);
          if (visible.length > 0) return this.stamped({ discoveries: visible, cursor, tier });
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

  private stamped(page: Omit<FeedResponse, 'serverTime'>): FeedResponse {
    return { ...page, serverTime: new Date(this.ctx.now()).toISOString() };
  }

  private async page(
    stream: DiscoveryStream,
    since: number,
    tier: FeedTier,
  ): Promise<Omit<FeedResponse, 'serverTime'>> {
    const { discoveries, cursor } = await stream.discoveriesAfter(since, FEED_PAGE_SIZE);
    return { discoveries: visibleTo(discoveries, tier), cursor, tier };
  }

  /** The newest finds (of the last LIVE_CONTEXT_MS), oldest first, with the cursor at the head. */
  private async livePage(stream: DiscoveryStream, tier: FeedTier): Promise<Omit<FeedResponse, 'serverTime'>> {
    // A cursor past the head reads as "older than what is kept": the newest page and the head cursor.
    const { discoveries, cursor } = await stream.discoveriesAfter(Number.MAX_SAFE_INTEGER, FEED_PAGE_SIZE);
    const from = this.ctx.now() - LIVE_CONTEXT_MS;
    const recent = discoveries.filter((d) => Date.parse(d.timestamp) >= from);
    return { discoveries: visibleTo(recent, tier), cursor, tier };
  }
}
