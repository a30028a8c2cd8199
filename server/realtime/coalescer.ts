interface Window<T> {
  timer: ReturnType<typeof setTimeout>;
  /** The latest value pushed while the window was open; boxed so `undefined` is a valid value. */
  pending: { value: T } | null;
}

/**
 * Latest-wins throttling by key. The first value of a key is delivered at once and opens a window;
 * values pushed while it is open replace each other, and the last one is delivered when it closes
 * (which opens the next window). So each key is delivered at most once per window, a lone update
 * goes out without delay, and the final state of a burst is never lost.
 *
 * Meant for replaceable state (system_health, scanner_status): only the newest copy matters.
 * Events where every item counts (server_hop) must not go through it.
 */
export class Coalescer<T> {
  private readonly windows = new Map<string, Window<T>>();
  private disposed = false;

  constructor(
    private readonly deliver: (key: string, value: T) => void,
    private readonly windowMs: number,
  ) {}

  push(key: string, value: T): void {
    if (this.disposed) return;
    const open = this.windows.get(key);
    if (open) {
      open.pending = { value };
      return;
    }
    this.openWindow(key);
    this.deliver(key, value);
  }

  /** How many keys hold a value waiting for their window to close. */
  get pendingCount(): number {
    let n = 0;
    for (const w of this.windows.values()) if (w.pending) n++;
    return n;
  }

  /** Drops whatever is pending and stops all timers; later pushes are ignored. */
  dispose(): void {
    this.disposed = true;
    for (const w of this.windows.values()) clearTimeout(w.timer);
    this.windows.clear();
  }

  private openWindow(key: string): void {
    const timer = setTimeout(() => this.closeWindow(key), this.windowMs);
    this.windows.set(key, { timer, pending: null });
  }

  private closeWindow(key: string): void {
    const w = this.windows.get(key);
    this.windows.delete(key);
    if (!w?.pending || this.disposed) return;
    this.openWindow(key);
    this.deliver(key, w.pending.value);
  }
}
