import type { FleetMinute } from '../../../common/fleet.ts';

const MINUTE_MS = 60_000;

/** One minute of the last hour: what the rates, the chart and per-bot success rates are summed from. */
interface MinuteBucket {
  start: number;
  hopsSucceeded: number;
  hopsFailed: number;
  discoveries: number;
  byBot: Map<string, { hops: number; ok: number }>;
}

export const percent = (part: number, whole: number) => Math.round((part / whole) * 1000) / 10;

/**
 * The last hour by the minute (keyed by the minute's start), so statistics cost the same however
 * many events a minute holds: a busy fleet sends hundreds of hops a second.
 */
export class FleetMinutes {
  private readonly minutes = new Map<number, MinuteBucket>();

  countHop(at: number, botId: string, success: boolean, hops: number): void {
    const bucket = this.bucketAt(at);
    if (success) bucket.hopsSucceeded += hops;
    else bucket.hopsFailed += hops;
    const bot = bucket.byBot.get(botId) ?? { hops: 0, ok: 0 };
    bot.hops += hops;
    if (success) bot.ok += hops;
    bucket.byBot.set(botId, bot);
  }

  countDiscoveries(at: number, discoveries: number): void {
    this.bucketAt(at).discoveries += discoveries;
  }

  /** Each bot's hops in the last hour, and how many of them succeeded. */
  hopsByBot(now: number): Map<string, { hops: number; ok: number }> {
    this.forgetOldMinutes(now);
    const byBot = new Map<string, { hops: number; ok: number }>();
    for (const bucket of this.minutes.values()) {
      for (const [botId, counts] of bucket.byBot) {
        const b = byBot.get(botId) ?? { hops: 0, ok: 0 };
        b.hops += counts.hops;
        b.ok += counts.ok;
        byBot.set(botId, b);
      }
    }
    return byBot;
  }

  /**
   * The success rate (percent) over the current minute and the ones before it: 15 minutes is this
   * minute and the 14 before; null when there were no hops.
   */
  successRate(now: number, minutes: number): number | null {
    this.forgetOldMinutes(now);
    const current = now - (now % MINUTE_MS);
    let hops = 0;
    let ok = 0;
    for (const bucket of this.minutes.values()) {
      if (bucket.start > current || bucket.start <= current - minutes * MINUTE_MS) continue;
      hops += bucket.hopsSucceeded + bucket.hopsFailed;
      ok += bucket.hopsSucceeded;
    }
    return hops > 0 ? percent(ok, hops) : null;
  }

  /** Sixty one-minute buckets ending with the current minute. */
  lastHour(now: number): FleetMinute[] {
    const current = now - (now % MINUTE_MS);
    return Array.from({ length: 60 }, (_, i) => {
      const start = current - (59 - i) * MINUTE_MS;
      const bucket = this.minutes.get(start);
      return {
        minute: new Date(start).toISOString(),
        hopsSucceeded: bucket?.hopsSucceeded ?? 0,
        hopsFailed: bucket?.hopsFailed ?? 0,
        discoveries: bucket?.discoveries ?? 0,
      };
    });
  }

  private bucketAt(at: number): MinuteBucket {
    const start = at - (at % MINUTE_MS);
    let bucket = this.minutes.get(start);
    if (!bucket) {
      bucket = { start, hopsSucceeded: 0, hopsFailed: 0, discoveries: 0, byBot: new Map() };
      this.minutes.set(start, bucket);
    }
    return bucket;
  }

  private forgetOldMinutes(now: number): void {
    const oldest = now - (now % MINUTE_MS) - 59 * MINUTE_MS;
    for (const start of this.minutes.keys()) if (start < oldest) this.minutes.delete(start);
  }
}
