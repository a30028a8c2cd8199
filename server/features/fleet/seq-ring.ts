/** Keeps the newest `size` items of a list ordered by `seq`, and the seq below which some were dropped. */
export class SeqRing<T extends { seq: number }> {
  items: T[] = [];
  /** Every item with seq > floor is held. */
  floor = 0;

  constructor(private readonly size: number) {}

  add(item: T): void {
    // Items arrive in seq order, except when two instances' events cross on the bus.
    let i = this.items.length;
    while (i > 0 && (this.items[i - 1]?.seq ?? 0) > item.seq) i--;
    if (this.items[i - 1]?.seq === item.seq) return;
    this.items.splice(i, 0, item);
    if (this.items.length > this.size) {
      const dropped = this.items.splice(0, this.items.length - this.size);
      this.floor = Math.max(this.floor, dropped.at(-1)?.seq ?? 0);
    }
  }

  /**
   * Adds many at once (what the database holds, read when an instance starts showing every event),
   * in one sort rather than one insertion each.
   */
  merge(more: T[]): void {
    const bySeq = new Map<number, T>();
    for (const item of [...more, ...this.items]) bySeq.set(item.seq, item);
    const all = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
    const dropped = Math.max(0, all.length - this.size);
    if (dropped > 0) this.floor = Math.max(this.floor, all[dropped - 1]?.seq ?? 0);
    this.items = all.slice(dropped);
  }

  /** Items with seq > since, oldest first; null when some of them were dropped. */
  after(since: number): T[] | null {
    if (since < this.floor) return null;
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.items[mid]?.seq ?? 0) <= since) lo = mid + 1;
      else hi = mid;
    }
    return this.items.slice(lo);
  }

  latest(n: number): T[] {
    return this.items.slice(-n);
  }

  /** Drops items older than `before` (retention); they count as dropped for `after`. */
  dropWhere(old: (item: T) => boolean): void {
    const kept = this.items.filter((item) => !old(item));
    for (const item of this.items) if (old(item)) this.floor = Math.max(this.floor, item.seq);
    this.items = kept;
  }
}
