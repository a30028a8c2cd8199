import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Coalescer } from './coalescer.ts';

describe('Coalescer', () => {
  let delivered: Array<[string, number]>;
  let coalescer: Coalescer<number>;

  beforeEach(() => {
    vi.useFakeTimers();
    delivered = [];
    coalescer = new Coalescer((key, value) => delivered.push([key, value]), 100);
  });
  afterEach(() => {
    coalescer.dispose();
    vi.useRealTimers();
  });

  it('delivers a lone update at once', () => {
    coalescer.push('system_health', 1);
    expect(delivered).toEqual([['system_health', 1]]);
  });

  it('turns a burst into the first value now and the latest one when the window closes', () => {
    for (let i = 1; i <= 20; i++) coalescer.push('system_health', i);
    expect(delivered).toEqual([['system_health', 1]]);
    vi.advanceTimersByTime(99);
    expect(delivered).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(delivered).toEqual([
      ['system_health', 1],
      ['system_health', 20],
    ]);
  });

  it('never delivers one key twice within 100 ms, even under a steady stream', () => {
    const times: number[] = [];
    const timed = new Coalescer<number>(() => times.push(Date.now()), 100);
    for (let t = 0; t < 1000; t += 10) {
      timed.push('scanner_status', t);
      vi.advanceTimersByTime(10);
    }
    timed.dispose();
    expect(times.length).toBeGreaterThanOrEqual(9);
    expect(times.length).toBeLessThanOrEqual(11);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(100);
  });

  it('keeps keys independent', () => {
    coalescer.push('system_health', 1);
    coalescer.push('scanner_status', 2);
    coalescer.push('system_health', 3);
    expect(delivered).toEqual([
      ['system_health', 1],
      ['scanner_status', 2],
    ]);
    vi.advanceTimersByTime(100);
    expect(delivered).toEqual([
      ['system_health', 1],
      ['scanner_status', 2],
      ['system_health', 3],
    ]);
  });

  it('delivers at once again after a quiet window', () => {
    coalescer.push('system_health', 1);
    vi.advanceTimersByTime(100);
    coalescer.push('system_health', 2);
    expect(delivered.map(([, v]) => v)).toEqual([1, 2]);
  });

  it('reports pending values and drops them on dispose', () => {
    coalescer.push('system_health', 1);
    coalescer.push('system_health', 2);
    expect(coalescer.pendingCount).toBe(1);
    coalescer.dispose();
    vi.advanceTimersByTime(500);
    coalescer.push('system_health', 3);
    expect(delivered.map(([, v]) => v)).toEqual([1]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
