import { describe, expect, it } from 'vitest';
import { BotEventBudget } from './bot-event-budget.ts';

describe('the bot event budget (a token bucket per bot)', () => {
  it('lets a burst through, then the rate, all or nothing per request', () => {
    const budget = new BotEventBudget(50, 500);
    expect(budget.take('a', 500, 0)).toEqual({ ok: true });
    expect(budget.take('a', 1, 0)).toEqual({ ok: false, retryAfterMs: 20, neverFits: false });
    expect(budget.take('a', 50, 999)).toEqual({ ok: false, retryAfterMs: 1, neverFits: false });
    expect(budget.take('a', 50, 1000)).toEqual({ ok: true });
    // A refused request takes nothing: the 25 that have come back are still there.
    expect(budget.take('a', 30, 1500).ok).toBe(false);
    expect(budget.take('a', 25, 1500)).toEqual({ ok: true });
    expect(budget.take('b', 500, 1500)).toEqual({ ok: true });
  });

  it('never passes a request larger than the bucket', () => {
    const budget = new BotEventBudget(50, 500);
    expect(budget.take('a', 501, 0)).toEqual({ ok: false, retryAfterMs: 10_000, neverFits: true });
  });

  it('forgets buckets that have filled up again, and holds at most maxBots', () => {
    const budget = new BotEventBudget(10, 100, { maxBots: 1000, sweepEveryMs: 1000 });
    for (let i = 0; i < 5000; i++) budget.take(`bot-${i}`, 10, 0);
    expect(budget.size).toBe(1000);
    // 1 s later each has refilled its 10: the next take sweeps them all but the one taking.
    budget.take('bot-x', 10, 1000);
    expect(budget.size).toBe(1);
    // A clock that goes back refills nothing.
    expect(budget.take('bot-x', 91, 0).ok).toBe(false);
  });
});
