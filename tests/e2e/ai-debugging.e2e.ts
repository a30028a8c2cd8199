import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../../bots/options.ts';
import { Simulator } from '../../bots/simulator.ts';
import { createDb } from '../../server/db/index.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { SETTLE_MS } from '../../server/features/health/analysis/analysis.service.ts';
import { loginThroughApi, toastTitled, useBrowserSuite } from './harness.ts';
import { startInProcessServer } from './in-process-server.ts';

const BOT_TOKEN = 'e2e-bot-token-ai-debugging-0123456789ab';
const MINUTE_MS = 60_000;
/** The simulator's usual share of failed hops, and the raised one. */
const QUIET_FAILURE_RATE = 0.05;
const RAISED_FAILURE_RATE = 0.9;

/** 20 bots hopping with few failures (every 5 s once the server's config frame arrives), finding nothing. */
function simulatorFor(url: string): Simulator {
  return new Simulator(
    {
      ...DEFAULT_OPTIONS,
      placeIds: [...DEFAULT_OPTIONS.placeIds],
      bots: 20,
      hopIntervalMs: 1_000,
      discoveryRate: 0,
      failureRate: QUIET_FAILURE_RATE,
      url,
      token: BOT_TOKEN,
      statusIntervalMs: 0,
    },
    Math.random,
    () => {},
  );
}

/**
 * The hop failure detector holds each minute against the fleet's own baseline, which it only trusts
 * after 15 minutes with 20 hops or more. A browser test cannot wait that long, so the database starts
 * with the last 25 minutes of a quiet fleet (60 hops a minute, 3 failed, spread over the bots) as history, written before
 * the server starts; the spike itself comes live from the simulator.
 */
async function seedQuietHistory(url: string, now: number): Promise<void> {
  const { db } = createDb(url);
  try {
    await migrateToLatest(db);
    const firstMinute = now - (now % MINUTE_MS) - 25 * MINUTE_MS;
    const hops = Array.from({ length: 25 * 60 }, (_, i) => {
      const minute = Math.floor(i / 60);
      // One hop per bot in each run of 20; the run's failure falls on a different bot each time, so
      // no bot stands out from the rest.
      const failed = Math.floor(i / 20) % 20 === i % 20;
      return {
        seq: i + 1,
        event_id: `seeded-${i + 1}`,
        bot_id: `ghost-${String((i % 20) + 1).padStart(2, '0')}`,
        from_job_id: null,
        to_job_id: `seeded-job-${i + 1}`,
        from_place_id: null,
        to_place_id: DEFAULT_OPTIONS.placeIds[0],
        success: failed ? 0 : 1,
        latency_ms: 400,
        error_message: failed ? 'Teleport failed: the server is full (GameFull)' : null,
        hop_reason: failed ? ('server_full' as const) : ('auto_scan' as const),
        attempt_number: 1,
        total_servers_attempted: 1,
        created_at: firstMinute + minute * MINUTE_MS + (i % 60) * 1_000,
      };
    });
    for (let i = 0; i < hops.length; i += 500) {
      await db
        .insertInto('fleet_hops')
        .values(hops.slice(i, i + 500))
        .execute();
    }
  } finally {
    await db.destroy();
  }
}

/**
 * A SQLite database of the suite's own, migrated and given `seed` before the suite's server starts
 * (register it before useBrowserSuite), and deleted afterwards. Returns its path.
 */
function useSeededDatabase(seed: (url: string, now: number) => Promise<void>): string {
  const dir = mkdtempSync(join(tmpdir(), 'scanline-e2e-seeded-'));
  const url = join(dir, 'scanline.db');
  beforeAll(() => seed(url, Date.now()));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return url;
}

/**
 * The AI System Debugging page against the app serving the built web app, with simulated bots
 * feeding the report. The server runs in this process on a clock the test moves forward: the hop
 * failure detector judges a minute once it is over, and the test moves to the end of the minute
 * instead of sleeping to it.
 */
describe('AI System Debugging in the browser', () => {
  // Its hooks come before the suite's: the history is in the database before the server opens it.
  const databaseUrl = useSeededDatabase(seedQuietHistory);
  const suite = useBrowserSuite({ BOT_TOKEN, DATABASE_URL: databaseUrl }, (env) => startInProcessServer(env));
  let simulator: Simulator;
  let page: Page;

  // The bots start after the server, and stop before it.
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

  it('generates a report from the fleet: the four cards, the score parts, the fleet, its age and duration', async () => {
    await page.goto('/admin/ai-debugging');
    await page.getByRole('heading', { name: 'AI System Debugging' }).waitFor();
    await page.getByText('No health report yet').waitFor();
    await expect.poll(() => simulator.counters.hops, { timeout: 15_000 }).toBeGreaterThan(40);

    await page.getByRole('button', { name: 'Generate Report' }).click();
    for (const name of ['Health Score', 'Database', 'Security', 'Performance', 'Score Breakdown']) {
      await page.getByRole('group', { name }).waitFor();
    }
    expect(await page.getByRole('group', { name: 'Fleet Health' }).innerText()).toMatch(
      /Bots in error\s*\d+ of 20/,
    );
    await page.getByText(/\(less than a minute ago\)/).waitFor();
    await page.getByText(/^\d+ms$|^\d+\.\d+s$/).waitFor();
    // The quiet fleet raises nothing.
    expect(await page.getByRole('article').filter({ hasText: 'hop_failure_spike' }).count()).toBe(0);
  });

  it('finds the hop failure spike when the failure rate is raised, recommends, and resolves and implements them', async () => {
    // The spike gets a minute of its own on the server's clock: the clock moves to the next minute's
    // start, and from there the fleet fails at the raised rate.
    const { clock } = suite.server;
    const spikeMinute = clock.now() - (clock.now() % MINUTE_MS) + MINUTE_MS;
    clock.advanceTo(spikeMinute);
    simulator.options.failureRate = RAISED_FAILURE_RATE;
    // Enough failed hops stored in that minute for it to be judged (20 hops or more) and to stand far
    // above the baseline.
    const { ctx } = suite.server;
    const failedInSpikeMinute = async () => {
      await ctx.services.fleet.flush();
      const { count } = await ctx.db
        .selectFrom('fleet_hops')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('success', '=', 0)
        .where('created_at', '>=', spikeMinute)
        .executeTakeFirstOrThrow();
      return Number(count);
    };
    await expect.poll(failedInSpikeMinute, { timeout: 30_000 }).toBeGreaterThanOrEqual(30);
    simulator.options.failureRate = QUIET_FAILURE_RATE;
    // Still inside that minute in the server's time (the raised hops took seconds, not a minute).
    expect(clock.now()).toBeLessThan(spikeMinute + MINUTE_MS);
    // A minute is judged once complete, and the analysis reads up to SETTLE_MS before now (hops are
    // written in batches): move the clock past both rather than waiting. The browser's clock is not
    // moved; nothing below reads how long ago something was.
    clock.advanceTo(spikeMinute + MINUTE_MS + SETTLE_MS + 1_000);

    await page.goto('/admin/ai-debugging');
    await page.getByRole('group', { name: 'Health Score' }).waitFor();
    await page.getByRole('button', { name: 'Generate Report' }).click();
    const finding = page.getByRole('article').filter({ hasText: 'hop_failure_spike' });
    await finding.waitFor({ timeout: 15_000 });
    expect(await finding.getByRole('heading').innerText()).toMatch(
      /^Hop failures spiked to [\d.]+% \(baseline/,
    );
    expect(await finding.innerText()).toMatch(/CRITICAL|ERROR|WARNING/);
    expect(await finding.innerText()).toContain('Suggested action:');

    await page.getByRole('tab', { name: /AI Recommendations/ }).click();
    // The simulator's failures are mostly full and dead servers, few rate limits: check the pool.
    const recommendation = page
      .getByRole('article')
      .filter({ hasText: /Check the server pool: hop failures at [\d.]+%/ });
    await recommendation.waitFor();
    expect(await recommendation.innerText()).toContain('Marks it implemented');
    await recommendation.getByRole('button', { name: 'Implement' }).click();
    await toastTitled(page, 'Recommendation Implemented').waitFor();
    await recommendation.getByText('Implemented', { exact: true }).waitFor();
    expect(await recommendation.getByRole('button', { name: 'Implement' }).count()).toBe(0);

    await page.getByRole('tab', { name: /Analysis Results/ }).click();
    await finding.getByRole('button', { name: 'Resolve' }).click();
    await toastTitled(page, 'Finding Resolved').waitFor();
    await finding.getByText('Resolved', { exact: true }).waitFor();

    // The server kept both: after a reload neither offers its button again.
    await page.reload();
    await finding.getByText('Resolved', { exact: true }).waitFor();
    expect(await finding.getByRole('button', { name: 'Resolve' }).count()).toBe(0);
    await page.getByRole('tab', { name: /AI Recommendations/ }).click();
    await recommendation.getByText('Implemented', { exact: true }).waitFor();
    expect(await recommendation.getByRole('button', { name: 'Implement' }).count()).toBe(0);
  });
  it('calls the fleet down and the system critical once the simulator stops, and the finding resolves itself when the bots are back', async () => {
    const { clock, ctx } = suite.server;
    // The spike's clock jump above left the bots silent on the server's clock for a moment, and the
    // analysis may have noted it: start this story from no fleet findings.
    const earlier = ctx.db
      .selectFrom('analysis_findings')
      .select('id')
      .where('analysis_type', '=', 'fleet_not_live');
    await ctx.db.deleteFrom('recommendations').where('analysis_id', 'in', earlier).execute();
    await ctx.db.deleteFrom('analysis_findings').where('analysis_type', '=', 'fleet_not_live').execute();
    await simulator.stop();
    // FLEET_INACTIVE_AFTER_MS (30 s) and more pass on the server's clock without a word from any bot.
    clock.advance(2 * MINUTE_MS);
    await page.goto('/admin/ai-debugging');
    await page.getByRole('group', { name: 'Health Score' }).waitFor();
    await page.getByRole('button', { name: 'Generate Report' }).click();
    const fleet = page.getByRole('group', { name: 'Fleet Health' });
    await fleet.getByText('DOWN', { exact: true }).waitFor({ timeout: 15_000 });
    expect(await fleet.innerText()).toMatch(/Bots heard from\s*0 of 20/);
    expect(await fleet.innerText()).toMatch(/Bots in error\s*\d+ of 20/);
    expect(await fleet.innerText()).toMatch(
      /No bot has reported for 2 min — last heard \d\d:\d\d from ghost-\d+/,
    );
    // The status badge capitalises its word.
    expect(await page.getByRole('group', { name: 'Health Score' }).innerText()).toMatch(/\bcritical\b/i);

    const down = page
      .getByRole('article')
      .filter({ hasText: 'fleet_not_live' })
      .filter({ hasText: 'No bot has reported for' });
    await down.waitFor();
    expect(await down.innerText()).toContain('CRITICAL');
    expect(await down.getByRole('heading').innerText()).toMatch(
      /^No bot has reported for 2 min — last heard \d\d:\d\d UTC from ghost-\d+$/,
    );

    // The bots come back; once they are heard from, the next report closes the finding by itself.
    simulator = simulatorFor(suite.server.url);
    await simulator.start();
    await expect
      .poll(async () => (await ctx.services.fleetCondition()).state, { timeout: 30_000 })
      .toBe('live');
    clock.advance(SETTLE_MS);
    await page.getByRole('button', { name: 'Generate Report' }).click();
    await fleet.getByText('LIVE', { exact: true }).waitFor({ timeout: 15_000 });
    await down.getByText('Resolved', { exact: true }).waitFor();
    expect(await down.innerText()).toMatch(/resolved automatically at \w{3} \d+, \d{4}/);
    expect(await down.getByRole('button', { name: 'Resolve' }).count()).toBe(0);
  });
});
