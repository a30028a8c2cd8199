import { describe, expect, it } from 'vitest';
import { MINUTE_MS } from './detector.ts';
import { findHopSpikes, type HopMinute, hopSpikeFinding, SPIKE } from './hop-failure-spike.ts';

const START = Date.UTC(2026, 10, 22, 6, 0, 0);

/** A seeded generator (mulberry32), so "random" fleets are the same on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` minutes of a fleet making `hops` hops a minute, each failing with probability `rate(minute)`. */
function fleet(
  count: number,
  { hops, rate, seed = 1 }: { hops: number; rate: number | ((i: number) => number); seed?: number },
): HopMinute[] {
  const random = seeded(seed);
  return Array.from({ length: count }, (_, i) => {
    const p = typeof rate === 'number' ? rate : rate(i);
    let failed = 0;
    for (let h = 0; h < hops; h++) if (random() < p) failed++;
    return { minute: START + i * MINUTE_MS, hops, failed };
  });
}

const wholeSpan = (minutes: HopMinute[]) => ({
  from: START,
  to: START + minutes.length * MINUTE_MS,
});

describe('hop failure spike (EWMA baseline)', () => {
  it('stays quiet over six hours of a steady 5% failure rate, for 70 bots and for a handful', () => {
    for (const hops of [840, 40]) {
      for (const seed of [1, 2, 3]) {
        const minutes = fleet(360, { hops, rate: 0.05, seed });
        expect(findHopSpikes(minutes, wholeSpan(minutes))).toEqual([]);
      }
    }
  });

  it('stays quiet while the rate drifts between 3% and 12% over the hours (the simulator runs at 10%)', () => {
    const minutes = fleet(360, { hops: 840, rate: (i) => 0.075 + 0.045 * Math.sin(i / 40), seed: 7 });
    expect(findHopSpikes(minutes, wholeSpan(minutes))).toEqual([]);
  });

  it('fires once for a minute at 30% in a 5% fleet, scored in deviations above the baseline', () => {
    const minutes = fleet(60, { hops: 840, rate: 0.05 });
    const spiked = { ...minutes[45], failed: 252 } as HopMinute; // 30%
    minutes[45] = spiked;
    const spikes = findHopSpikes(minutes, wholeSpan(minutes));
    expect(spikes).toHaveLength(1);
    expect(spikes[0]).toMatchObject({ minute: spiked.minute, rate: 0.3 });
    expect(spikes[0]?.baseline).toBeGreaterThan(0.04);
    expect(spikes[0]?.baseline).toBeLessThan(0.06);
    expect(spikes[0]?.score).toBeGreaterThan(SPIKE.severity.critical);
  });

  it('judges the fleet against its own past: a fleet that always fails 30% does not fire, and a jump from there to 60% does', () => {
    const steady = fleet(120, { hops: 840, rate: 0.3 });
    expect(findHopSpikes(steady, wholeSpan(steady))).toEqual([]);
    steady[100] = { ...(steady[100] as HopMinute), failed: 504 };
    expect(findHopSpikes(steady, wholeSpan(steady)).map((s) => s.rate)).toEqual([0.6]);
  });

  it('judges each minute in the one window it ended in, once it is complete', () => {
    const minutes = fleet(60, { hops: 200, rate: 0.05 });
    minutes[40] = { ...(minutes[40] as HopMinute), failed: 100 };
    const spikeEnd = START + 41 * MINUTE_MS;
    // The run that reads up to half-way through the minute leaves it for the next one.
    const first = findHopSpikes(minutes, { from: START, to: spikeEnd - 30_000 });
    const second = findHopSpikes(minutes, { from: spikeEnd - 30_000, to: spikeEnd + 90_000 });
    const third = findHopSpikes(minutes, { from: spikeEnd + 90_000, to: START + 60 * MINUTE_MS });
    expect([first.length, second.length, third.length]).toEqual([0, 1, 0]);
  });

  it('needs a baseline and enough hops in the minute', () => {
    const early = fleet(30, { hops: 200, rate: 0.05 });
    early[SPIKE.minBaselineMinutes - 1] = {
      ...(early[SPIKE.minBaselineMinutes - 1] as HopMinute),
      failed: 150,
    };
    expect(findHopSpikes(early, wholeSpan(early))).toEqual([]);

    const quiet = fleet(60, { hops: 200, rate: 0.05 });
    quiet[50] = {
      minute: (quiet[50] as HopMinute).minute,
      hops: SPIKE.minHops - 1,
      failed: SPIKE.minHops - 1,
    };
    expect(findHopSpikes(quiet, wholeSpan(quiet))).toEqual([]);
  });

  it('keeps a spike out of the baseline, so a second spike right after it fires too', () => {
    const minutes = fleet(60, { hops: 400, rate: 0.05 });
    minutes[40] = { ...(minutes[40] as HopMinute), failed: 200 };
    minutes[41] = { ...(minutes[41] as HopMinute), failed: 200 };
    expect(findHopSpikes(minutes, wholeSpan(minutes))).toHaveLength(2);
  });

  it('describes the worst minute, the bots that failed most and whether the game rate-limited them', () => {
    const minutes = fleet(60, { hops: 100, rate: 0.05 });
    minutes[50] = { ...(minutes[50] as HopMinute), failed: 50 };
    const spikes = findHopSpikes(minutes, wholeSpan(minutes));
    const finding = hopSpikeFinding(spikes, [
      { botId: 'ghost-12', errorMessage: 'HTTP 429 (Too Many Requests) from TeleportService', failed: 30 },
      { botId: 'ghost-40', errorMessage: 'HTTP 429 (Too Many Requests) from TeleportService', failed: 15 },
      { botId: 'ghost-03', errorMessage: 'Teleport failed: the server is full (GameFull)', failed: 5 },
    ]);
    expect(finding).toMatchObject({
      analysisType: 'hop_failure_spike',
      subject: 'fleet',
      title: expect.stringMatching(/^Hop failures spiked to 50% \(baseline [\d.]+%\)$/),
      occurrences: 1,
      lastSeenAt: START + 51 * MINUTE_MS,
      evidence: { failedBots: ['ghost-12', 'ghost-40', 'ghost-03'], rateLimitedShare: 0.9 },
    });
    expect(finding?.description).toContain('50 of 100 hops failed');
    expect(finding?.suggestedAction).toContain('STEALTH');
    expect(hopSpikeFinding([], [])).toBeNull();
  });
});
