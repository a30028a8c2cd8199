import { expect } from 'vitest';
import { TEST_BOT_TOKEN, type TestApp } from '../../test/helper.ts';

/** Finds of every band: below 5M/s (all of it free), 5–10M/s (free without join data), 10M/s and up. */
export const SMALL = { name: 'Noobini Pizzanini', value: '$850K/s' };
export const MIDDLE = { name: 'Chimpanzini Bananini', value: '$6.2M/s' };
export const LARGE = { name: 'La Vacca Saturno', value: '$12M/s' };
export const HUGE = { name: 'Garama and Madundung', value: '$50M/s' };
/** A value the server cannot read ('Qa' is no suffix it knows): it could be worth anything. */
export const UNREADABLE = { name: 'Strawberry Elephant', value: '$3Qa/s' };

export const TEST_PLACE_ID = '109983668079237';

let jobCounter = 0;

/**
 * A bot reports finds the way real bots do: a batch on POST /api/bot/events with the bot token.
 * Each find is in a server of its own; returns their job ids, in order.
 */
export async function reportFinds(
  t: Pick<TestApp, 'injectBare'>,
  finds: Array<{ name: string; value: string }>,
  ghostId = 'ghost-01',
): Promise<string[]> {
  const jobIds = finds.map(() => {
    jobCounter += 1;
    return `00000000-0000-4000-8000-${String(jobCounter).padStart(12, '0')}`;
  });
  const res = await t.injectBare({
    method: 'POST',
    url: '/api/bot/events',
    headers: { authorization: `Bearer ${TEST_BOT_TOKEN}` },
    payload: {
      ghostId,
      events: finds.map((find, i) => ({
        type: 'pet_discovered',
        payload: { ...find, placeid: TEST_PLACE_ID, jobid: jobIds[i] },
      })),
    },
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return jobIds;
}

/** Reported a minute later by another bot: releases the 5–10M/s finds the free tier holds (free-tier.ts). */
export const NEXT_MINUTE = { name: 'Lirili Larila', value: '$700K/s' };

/** Moves the clock a minute on and has another bot report `finds` (NEXT_MINUTE by default). */
export async function reportNextMinute(
  t: Pick<TestApp, 'injectBare' | 'clock'>,
  finds: Array<{ name: string; value: string }> = [NEXT_MINUTE],
): Promise<string[]> {
  t.clock.advance(60_000);
  return reportFinds(t, finds, 'ghost-02');
}
