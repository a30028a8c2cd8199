import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../../bots/options.ts';
import { Simulator } from '../../bots/simulator.ts';
import { loginThroughApi, useBrowserSuite } from './harness.ts';

const BOT_TOKEN = 'e2e-bot-token-ai-debugging-0123456789ab';

/** 20 bots hopping every second with few failures, until the test raises the rate. */
function simulatorFor(url: string): Simulator {
  return new Simulator(
    {
      ...DEFAULT_OPTIONS,
      placeIds: [...DEFAULT_OPTIONS.placeIds],
      bots: 20,
      hopIntervalMs: 1_000,
      discoveryRate: 0,
      failureRate: 0.05,
      url,
      token: BOT_TOKEN,
      statusIntervalMs: 0,
    },
    Math.random,
    () => {},
  );
}

/** The AI System Debugging page against the built server, with simulated bots feeding the report. */
describe('AI System Debugging in the browser', () => {
  const suite = useBrowserSuite({ BOT_TOKEN });
  let simulator: Simulator;
  let page: Page;

  // Registered after the suite's hooks: the bots start after the server, and stop before it.
  beforeAll(async () => {
    simulator = simulatorFor(suite.server.url);
    await simulator.start();
  });
  afterAll(async () => {
    await simulator?.stop();
  });
  beforeEach(async () => {
    page = suite.page;
    await loginThroughApi(page);
  });

  it('generates a report from the fleet: the four cards, the score in its colour, the fleet and the duration', async () => {
    await page.goto('/admin/ai-debugging');
    await page.getByRole('heading', { name: 'AI System Debugging' }).waitFor();
    await page.getByText('No health report yet').waitFor();
    await expect.poll(() => simulator.counters.hops, { timeout: 15_000 }).toBeGreaterThan(40);

    await page.getByRole('button', { name: 'Generate Report' }).click();
    const score = page.getByRole('group', { name: 'Health Score' });
    await score.waitFor();
    for (const name of ['Database', 'Security', 'Performance', 'Fleet Health', 'Score Breakdown']) {
      await page.getByRole('group', { name }).waitFor();
    }
    expect(await page.getByRole('group', { name: 'Fleet Health' }).innerText()).toMatch(
      /Bots in error\s*\d+ of 20/,
    );
    await page.getByText(/\(less than a minute ago\)/).waitFor();
    await page.getByText(/^\d+ms$|^\d+\.\d+s$/).waitFor();
  });
});
