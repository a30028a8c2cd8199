/**
 * The lease sweeps of claims that find the pool empty. With many bots asking an empty pool, a sweep
 * each would cost more than the claims: claims arriving while one runs wait for it, and for a second
 * after it began its answer stands (the periodic sweep does the rest).
 */
export class EmptyPoolSweeps {
  private startedAt = Number.NEGATIVE_INFINITY;
  private running: Promise<number> | null = null;

  constructor(private readonly everyMs = 1000) {}

  /** Runs `sweep` unless one is running (its result is shared) or began within `everyMs` (0, none). */
  run(now: number, sweep: () => Promise<number>): Promise<number> {
    if (this.running !== null) return this.running;
    if (now - this.startedAt < this.everyMs) return Promise.resolve(0);
    this.startedAt = now;
    const running = sweep().finally(() => {
      this.running = null;
    });
    this.running = running;
    return running;
  }
}

declare module '../../context.ts' {
  interface AppServices {
    /** The server pool's sweeps for claims that find it empty, one at a time (empty-pool-sweeps.ts). */
    emptyPoolSweeps: EmptyPoolSweeps;
  }
}
