/*
 * bench:scale's hop → admin socket timing: each hop a bot sent (told by the fleet's process, with
 * the time it went out and the instance its socket is on) is joined with the same hop arriving on
 * the bench's admin socket (botId and toJobId name it on both sides). Either side may come first:
 * the fleet's reports arrive in batches.
 */

/** Epoch milliseconds with sub-millisecond precision, comparable between processes on one machine. */
export const absoluteNow = () => performance.timeOrigin + performance.now();

/** One hop as sent: its time and the instance (nginx's upstream address, or '') the bot's socket was on. */
interface Sent {
  at: number;
  instance: string;
}

export interface HopLatency {
  ms: number;
  /** The instance the bot that sent it was connected to. */
  instance: string;
}

/** Unjoined entries older than this are dropped (a hop the admin socket never got). */
const FORGET_AFTER_MS = 30_000;

export class HopTimer {
  readonly samples: HopLatency[] = [];
  /** Hops sent inside the window (each should reach the admin socket once). */
  sentInWindow = 0;
  private readonly sent = new Map<string, Sent>();
  private readonly arrived = new Map<string, number>();
  private from = Number.POSITIVE_INFINITY;
  private until = Number.POSITIVE_INFINITY;
  private calls = 0;

  /** Only hops sent from `from` until `until` (absolute ms) are counted. */
  measure(from: number, until: number): void {
    this.from = from;
    this.until = until;
  }

  onSent(ghostId: string, jobId: string, at: number, instance: string): void {
    const key = `${ghostId} ${jobId}`;
    if (at >= this.from && at < this.until) this.sentInWindow += 1;
    const arrivedAt = this.arrived.get(key);
    if (arrivedAt === undefined) this.sent.set(key, { at, instance });
    else {
      this.arrived.delete(key);
      this.record({ at, instance }, arrivedAt);
    }
    if (++this.calls % 1_000 === 0) this.forget(at - FORGET_AFTER_MS);
  }

  onArrived(botId: string, toJobId: string, at: number): void {
    const key = `${botId} ${toJobId}`;
    const sent = this.sent.get(key);
    if (sent === undefined) this.arrived.set(key, at);
    else {
      this.sent.delete(key);
      this.record(sent, at);
    }
  }

  private record(sent: Sent, arrivedAt: number): void {
    if (sent.at >= this.from && sent.at < this.until)
      this.samples.push({ ms: arrivedAt - sent.at, instance: sent.instance });
  }

  private forget(before: number): void {
    for (const [key, sent] of this.sent) if (sent.at < before) this.sent.delete(key);
    for (const [key, at] of this.arrived) if (at < before) this.arrived.delete(key);
  }
}
