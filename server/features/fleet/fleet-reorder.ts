/**
 * Through Redis, two instances' events can cross on the bus (seq 6 published before 5). An event
 * that arrives ahead of a gap waits this long for the gap to fill, so listeners get the stream in
 * seq order; a position that never comes (an instance died between INCR and publish) is skipped.
 */
const REORDER_WAIT_MS = 100;

/** Hands events on in seq order: one after a gap waits (at most REORDER_WAIT_MS) for the gap. */
export class SeqReorder<T extends { seq: number }> {
  /** The highest seq handed on; events after a gap wait in `early`. */
  released = 0;
  private readonly early = new Map<number, T>();
  private timer: NodeJS.Timeout | undefined;

  /**
   * `release` takes each event in order; `afterWait` runs once events that waited out a gap went.
   * `waits` says whether gaps are waited for: only while every event comes here (an instance
   * without dashboards does not hear other instances' hops, so their positions never come).
   */
  constructor(
    private readonly release: (event: T) => void,
    private readonly afterWait: () => void,
    private readonly waits: () => boolean = () => true,
  ) {}

  arrive(event: T): void {
    if (!this.waits() && this.early.size === 0) {
      this.released = Math.max(this.released, event.seq);
      this.release(event);
      return;
    }
    if (event.seq <= this.released) {
      // Later than its wait: applied (the rings keep seq order) rather than lost.
      this.release(event);
      return;
    }
    this.early.set(event.seq, event);
    for (let next = this.early.get(this.released + 1); next; next = this.early.get(this.released + 1)) {
      this.early.delete(next.seq);
      this.released = next.seq;
      this.release(next);
    }
    if (this.early.size === 0) {
      clearTimeout(this.timer);
      this.timer = undefined;
    } else {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        for (const waiting of [...this.early.values()].sort((a, b) => a.seq - b.seq)) {
          this.early.delete(waiting.seq);
          this.released = Math.max(this.released, waiting.seq);
          this.release(waiting);
        }
        this.afterWait();
      }, REORDER_WAIT_MS).unref();
    }
  }

  close(): void {
    clearTimeout(this.timer);
  }
}
