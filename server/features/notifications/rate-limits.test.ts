import { describe, expect, it } from 'vitest';
import type { OutboundResponse } from './outbound-request.ts';
import { BACKOFF_MAX_MS, backoffMs, networkOutcome, outcomeOf, RateLimiter } from './rate-limits.ts';

const answer = (status: number, headers: Record<string, string> = {}, body = ''): OutboundResponse => ({
  status,
  headers,
  body,
});

describe('what an answer means for a delivery', () => {
  it('2xx: sent', () => {
    expect(outcomeOf(answer(204), 0)).toEqual({ kind: 'sent' });
  });

  it("429: wait the body's retry_after (seconds, float), not counted as an attempt", () => {
    const o = outcomeOf(answer(429, {}, JSON.stringify({ retry_after: 1.234, global: false })), 3);
    expect(o).toMatchObject({ kind: 'retry', afterMs: 1234, attempt: false });
  });

  it('429 without a JSON body: the Retry-After header', () => {
    expect(outcomeOf(answer(429, { 'retry-after': '7' }, '<html>'), 0)).toMatchObject({ afterMs: 7000 });
  });

  it('404, 401 and 403 disable the destination with the reason', () => {
    const gone = outcomeOf(answer(404, {}, JSON.stringify({ message: 'Unknown Webhook', code: 10015 })), 0);
    expect(gone).toEqual({
      kind: 'disable',
      reason: 'Unknown Webhook (404)',
      error: 'HTTP 404: Unknown Webhook',
    });
    expect(outcomeOf(answer(401), 0)).toMatchObject({ kind: 'disable', reason: 'Unauthorized (401)' });
    expect(outcomeOf(answer(403, {}, '{"message":"Missing Access","code":50001}'), 0)).toEqual({
      kind: 'disable',
      reason: 'Forbidden (403)',
      error: 'HTTP 403: Missing Access',
    });
  });

  it('5xx and network errors retry with backoff; other 4xx fail', () => {
    expect(outcomeOf(answer(502), 2, () => 0.5)).toEqual({
      kind: 'retry',
      afterMs: 2000,
      error: 'HTTP 502',
      attempt: true,
      down: true,
    });
    expect(outcomeOf(answer(500), 0)).toMatchObject({ kind: 'retry', down: false });
    expect(networkOutcome(new Error('ECONNREFUSED'), 0, () => 0.5)).toMatchObject({
      kind: 'retry',
      afterMs: 500,
      down: true,
    });
    // Sent and unanswered: it may have been taken, so the destination is not probed as down.
    expect(networkOutcome(new Error('No answer'), 0, () => 0.5, true)).toMatchObject({ down: false });
    expect(outcomeOf(answer(400, {}, '{"message":"Invalid Form Body"}'), 0)).toEqual({
      kind: 'fail',
      error: 'HTTP 400: Invalid Form Body',
    });
  });

  it('backs off exponentially with full jitter, capped', () => {
    expect(backoffMs(0, () => 0.999)).toBeLessThan(1000);
    expect(backoffMs(3, () => 0.999)).toBeLessThan(8000);
    expect(backoffMs(3, () => 0.999)).toBeGreaterThan(7000);
    expect(backoffMs(40, () => 0.999)).toBeLessThan(BACKOFF_MAX_MS);
    expect(backoffMs(5, () => 0)).toBe(0);
  });
});

describe('RateLimiter', () => {
  it('waits out a bucket whose Remaining is 0 until its Reset-After', () => {
    let now = 1_000;
    const limits = new RateLimiter(() => now);
    limits.observe('a', answer(204, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': '1.5' }));
    expect(limits.waitMs('a')).toBe(1500);
    expect(limits.waitMs('b')).toBe(0);
    now += 1500;
    expect(limits.waitMs('a')).toBe(0);
  });

  it('a 429 blocks its route, a global one every route', () => {
    const now = 0;
    const limits = new RateLimiter(() => now);
    limits.observe('a', answer(429, {}, JSON.stringify({ retry_after: 2, global: false })));
    expect([limits.waitMs('a'), limits.waitMs('b')]).toEqual([2000, 0]);
    limits.observe(
      'b',
      answer(429, { 'x-ratelimit-global': 'true' }, JSON.stringify({ retry_after: 3, global: true })),
    );
    expect([limits.waitMs('a'), limits.waitMs('c')]).toEqual([3000, 3000]);
  });
});
