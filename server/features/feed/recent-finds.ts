import type { PetDiscovery } from '../../../common/fleet.ts';
import { SeqRing } from '../fleet/seq-ring.ts';
import { freeShareOf, minuteOf } from './free-tier.ts';

/** Minutes of the stream kept: a free caller resuming from an older cursor may miss finds held then. */
const KEEP_MINUTES = 5;
/** Entries kept at most, whatever the rate of finds (small objects; held finds are the stream's own). */
const MAX_ENTRIES = 50_000;
/** Clocks of instances may differ this much: a walk back stops only past it. */
const SKEW_MINUTES = 1;

interface Entry<T> {
  seq: number;
  minute: number;
  /** The find, when the free tier holds it (5–10M/s). */
  held?: T;
}

/**
 * The last minutes of the discovery stream as the free tier's holding needs them: each find's
 * position and minute, and the held finds themselves. From it a free caller starting (or resuming)
 * at any position learns which held finds are still to come, as one that had read from the start
 * would hold them (free-tier.ts).
 */
export class RecentFinds<T> {
  private readonly ring = new SeqRing<Entry<T>>(MAX_ENTRIES);

  constructor(private readonly findOf: (item: T) => PetDiscovery) {}

  /** A find of the stream (in seq order, except when two instances' events cross on the bus). */
  add(item: T): void {
    const discovery = this.findOf(item);
    const entry: Entry<T> = { seq: discovery.seq, minute: minuteOf(discovery) };
    if (freeShareOf(discovery) === 'held') entry.held = item;
    this.ring.add(entry);
    const oldest = entry.minute - KEEP_MINUTES;
    if ((this.ring.items[0]?.minute ?? oldest) < oldest) this.ring.dropWhere((e) => e.minute < oldest);
  }

  /** The newest position known (0 when none). */
  get head(): number {
    return this.ring.items.at(-1)?.seq ?? 0;
  }

  /**
   * The held finds not yet released at stream position `at`: held at or before it, and no find of a
   * later minute after them up to it. Oldest first.
   */
  heldAt(at: number): T[] {
    const after = this.ring.after(at);
    // Older than what is kept: nothing known is held there.
    if (after === null) return [];
    const { items } = this.ring;
    let laterMinute = Number.NEGATIVE_INFINITY;
    const held: T[] = [];
    for (let i = items.length - after.length - 1; i >= 0; i--) {
      const entry = items[i]!;
      if (entry.minute < laterMinute - SKEW_MINUTES) break;
      if (entry.held !== undefined && entry.minute >= laterMinute) held.push(entry.held);
      if (entry.minute > laterMinute) laterMinute = entry.minute;
    }
    return held.reverse();
  }
}
