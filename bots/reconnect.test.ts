import { describe, expect, it } from 'vitest';
import { seededRandom } from './pets.ts';
import { reconnectDelayMs } from './simulator.ts';

describe('the simulator reconnect backoff', () => {
  it('doubles from 1 s up to 10 s, each delay a random point in the upper half', () => {
    const spans = [1000, 2000, 4000, 8000, 10_000, 10_000, 10_000];
    for (const [attempt, span] of spans.entries()) {
      expect(reconnectDelayMs(attempt, () => 0)).toBe(span / 2);
      expect(reconnectDelayMs(attempt, () => 0.999_999)).toBeCloseTo(span, -1);
    }
    expect(reconnectDelayMs(1_000, () => 1)).toBe(10_000);
  });

  it('spreads 1,000 bots over the span rather than one instant', () => {
    const random = seededRandom(7);
    const delays = Array.from({ length: 1000 }, () => reconnectDelayMs(0, random));
    const perTenth = new Array(5).fill(0);
    for (const d of delays) perTenth[Math.min(4, Math.floor((d - 500) / 100))] += 1;
    // Each 100 ms of the 500-1000 ms span gets about a fifth of them.
    for (const n of perTenth) expect(n).toBeGreaterThan(140);
  });

  it("waits out a 429's Retry-After", () => {
    expect(reconnectDelayMs(0, () => 0.5, 30_000)).toBe(30_000);
    expect(reconnectDelayMs(0, () => 0.5, -5)).toBe(750);
  });
});
