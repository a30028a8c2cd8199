/**
 * Fixed-window message counter for one socket. Transport mechanics, so it runs on the monotonic
 * clock rather than the app's (fakeable) business clock.
 */
export class MessageRateLimiter {
  private windowStart = Number.NEGATIVE_INFINITY;
  private count = 0;
  private rejectedInWindow = false;

  constructor(
    readonly max: number,
    readonly windowMs: number,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /**
   * Counts one message. `firstRejection` is true for the first refused message of a window, so the
   * caller answers a flood with one error frame instead of one per dropped message.
   */
  take(): { accepted: boolean; firstRejection: boolean } {
    const now = this.clock();
    if (now - this.windowStart >= this.windowMs) {
      this.windowStart = now;
      this.count = 0;
      this.rejectedInWindow = false;
    }
    this.count++;
    if (this.count <= this.max) return { accepted: true, firstRejection: false };
    const firstRejection = !this.rejectedInWindow;
    this.rejectedInWindow = true;
    return { accepted: false, firstRejection };
  }
}
