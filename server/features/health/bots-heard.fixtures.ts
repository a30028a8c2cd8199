import { expect } from 'vitest';
import { TEST_BOT_TOKEN, type TestApp } from '../../test/helper.ts';

/**
 * Each bot says hello over POST /api/bot/events, in order (the last is the last heard from): the
 * fleet then counts them as heard, until FLEET_INACTIVE_AFTER_MS passes on the test's clock.
 */
export async function botsReport(t: Pick<TestApp, 'injectBare'>, ghostIds: readonly string[]): Promise<void> {
  for (const ghostId of ghostIds) {
    const res = await t.injectBare({
      method: 'POST',
      url: '/api/bot/events',
      headers: { authorization: `Bearer ${TEST_BOT_TOKEN}` },
      payload: { ghostId, events: [{ type: 'hello', payload: { ghostId, version: '1.0.0' } }] },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
}

/** ghost-01 … ghost-NN. */
export const ghostIds = (count: number) =>
  Array.from({ length: count }, (_, i) => `ghost-${String(i + 1).padStart(2, '0')}`);
