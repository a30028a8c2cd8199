import type { FeedResponse, PetDiscovery } from '../../../common/fleet.ts';
import { type EncodedFrame, encodeFrame } from '../../realtime/frames.ts';
import { freeShareOf, heldFindAsShown } from './free-tier.ts';

type FeedTier = FeedResponse['tier'];

/**
 * A find's `discovery` frames, each serialised at most once however many sockets receive it (the
 * feed socket of 2,000 executors must not stringify a find 2,000 times): the frame for each tier, and
 * the frames of the held finds it releases to the free tier (free-tier.ts).
 */
export class DiscoveryFrames {
  private readonly frames = new Map<FeedTier, EncodedFrame | null>();
  private readonly releasedFrames = new Map<string, EncodedFrame>();

  constructor(
    readonly discovery: PetDiscovery,
    /** When the server received it: the frame's time, and that of the held finds it releases. */
    readonly now: number,
  ) {}

  /**
   * The frame for the tier (its UTF-8 bytes shared by every socket), or null when the tier is not
   * sent this find now: PREMIUM gets every find, FREE those below 5M/s (it gets 5–10M/s ones later,
   * through `frameReleasing`).
   */
  frameFor(tier: FeedTier): EncodedFrame | null {
    let frame = this.frames.get(tier);
    if (frame === undefined) {
      const shown = tier === 'PREMIUM' || freeShareOf(this.discovery) === 'all';
      frame = shown ? this.encode(this.discovery) : null;
      this.frames.set(tier, frame);
    }
    return frame;
  }

  /** The free tier's frame of a held find this find releases: at this find's position and time. */
  frameReleasing(held: DiscoveryFrames): EncodedFrame {
    const { id } = held.discovery;
    let frame = this.releasedFrames.get(id);
    if (frame === undefined) {
      frame = this.encode(heldFindAsShown(held.discovery, this.discovery.seq));
      this.releasedFrames.set(id, frame);
    }
    return frame;
  }

  private encode(shown: object): EncodedFrame {
    // The server's time rides with each find, so a client judges its age by the server's clock.
    return encodeFrame('discovery', { ...shown, serverTime: new Date(this.now).toISOString() }, this.now);
  }
}
