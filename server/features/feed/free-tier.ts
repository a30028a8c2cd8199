import type { FeedDiscovery, PetDiscovery } from '../../../common/fleet.ts';
import { freeTierShare } from '../../../common/pet-value.ts';

/*
 * What the FREE tier gets of a find, and when. Below 5M/s a find is shown as it is, from 10M/s (or
 * a value that does not parse) not at all. In between it is shown without join data, and without
 * anything that would tie it to a find shown in clear: the same bot's $1M find of the same scan,
 * next to it in the stream and at the same millisecond, would give its job away. So such a find is
 * "held": it carries no jobid, placeid, botId or scannerId, its timestamp is cut to the minute, and
 * it reaches free callers only with the first find reported in a later minute (released, ordered by
 * its random id among the finds released with it, at that find's position). Every free caller, by
 * HTTP or socket, from any cursor, gets it at the same place: nothing depends on when one asked.
 */

const MINUTE_MS = 60_000;

/** How much of a find the FREE tier gets: 'all', 'held' (5–10M/s: later and unlinkable) or 'none'. */
export function freeShareOf(discovery: PetDiscovery): 'all' | 'held' | 'none' {
  const share = freeTierShare(discovery.value);
  return share === 'withoutJoinData' ? 'held' : share;
}

/** The minute a find was reported in (by the server's clock), as a number. */
export function minuteOf(discovery: PetDiscovery): number {
  return Math.floor(Date.parse(discovery.timestamp) / MINUTE_MS);
}

/** A held find as free callers get it, released at the stream position `releasedAt`. */
export function heldFindAsShown(discovery: PetDiscovery, releasedAt: number): FeedDiscovery {
  return {
    ...discovery,
    seq: releasedAt,
    timestamp: new Date(minuteOf(discovery) * MINUTE_MS).toISOString(),
    placeid: null,
    jobid: null,
    scannerId: null,
    botId: null,
  };
}

/**
 * One free caller's held finds as it walks the stream in seq order: each find passed releases those
 * held from earlier minutes, and is held itself when it is a 5–10M/s find. Generic over what carries
 * the find (a socket keeps its serialised frames, a read the finds themselves).
 */
export class HeldFinds<T> {
  constructor(
    private held: T[],
    private readonly findOf: (item: T) => PetDiscovery,
  ) {}

  /** The finds `item` releases (ordered by id, which is random), then holds `item` if it is to be held. */
  pass(item: T): T[] {
    const discovery = this.findOf(item);
    let released: T[] = [];
    if (this.held.length > 0) {
      const minute = minuteOf(discovery);
      released = this.held.filter((held) => minuteOf(this.findOf(held)) < minute);
      if (released.length > 0) {
        this.held = this.held.filter((held) => minuteOf(this.findOf(held)) >= minute);
        released.sort((a, b) => (this.findOf(a).id < this.findOf(b).id ? -1 : 1));
      }
    }
    if (freeShareOf(discovery) === 'held') this.held.push(item);
    return released;
  }
}

/** Held finds that are the finds themselves (a read's, rather than a socket's frames). */
export function heldFinds(held: PetDiscovery[] = []): HeldFinds<PetDiscovery> {
  return new HeldFinds(held, (discovery) => discovery);
}

/** What a free caller is shown of finds in stream order, releasing (and holding) as it goes. */
export function shownToFree(finds: PetDiscovery[], held: HeldFinds<PetDiscovery>): FeedDiscovery[] {
  const shown: FeedDiscovery[] = [];
  for (const discovery of finds) {
    for (const released of held.pass(discovery)) shown.push(heldFindAsShown(released, discovery.seq));
    if (freeShareOf(discovery) === 'all') shown.push(discovery);
  }
  return shown;
}
