import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../../bots/options.ts';
import { SIMULATED_CONFIG_FAILURE, Simulator } from '../../bots/simulator.ts';
import type { ServerHopEvent } from '../../common/fleet.ts';
import { connectTestClient, type TestClient } from '../../server/test/socket-client.ts';
import { loginThroughApi, sameOriginHeaders, toastTitled, useBrowserSuite } from './harness.ts';

const BOT_TOKEN = 'e2e-bot-token-live-configuration-0123456';
const BOTS = 10;
/** The last two bots misbehave on configs (--failing-bots, --silent-bots), so failures show. */
const FAILING_BOT = 'ghost-09';
const SILENT_BOT = 'ghost-10';
const FIRST_FIVE = ['ghost-01', 'ghost-02', 'ghost-03', 'ghost-04', 'ghost-05'];

function simulatorFor(url: string): Simulator {
  return new Simulator(
    {
      ...DEFAULT_OPTIONS,
      placeIds: [...DEFAULT_OPTIONS.placeIds],
      bots: BOTS,
      discoveryRate: 0,
      failureRate: 0,
      url,
      token: BOT_TOKEN,
      statusIntervalMs: 0,
      failingBots: [FAILING_BOT],
      silentBots: [SILENT_BOT],
    },
    Math.random,
    () => {},
  );
}

/** The bots whose hops reached the admin socket (what every dashboard gets) after frame `from`. */
function hoppersSince(dashboard: TestClient, from: number): Set<string> {
  return new Set(
    dashboard.frames
      .slice(from)
      .filter((frame) => frame.type === 'server_hop')
      .map((frame) => (frame.payload as ServerHopEvent).botId),
  );
}

/** The admin socket with the page's session, as a second dashboard: it counts the server's hop feed. */
async function hopFeedOf(page: Page, serverUrl: string): Promise<TestClient> {
  const session = (await page.context().cookies()).find((c) => c.name === 'scanline_session');
  if (!session) throw new Error('the page is not signed in');
  return connectTestClient(`${serverUrl.replace(/^http/, 'ws')}/ws`, `${session.name}=${session.value}`);
}

/** The Live Configuration page against the built server, with 10 simulated bots taking its pushes. */
describe('Live Configuration in the browser', () => {
  // A short acknowledgement deadline, so the silent bot's push fails within the test.
  const suite = useBrowserSuite({ BOT_TOKEN, CONFIG_ACK_DEADLINE_MS: '2000' });
  let simulator: Simulator;
  let page: Page;
  let dashboard: TestClient | undefined;

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
  afterEach(() => {
    dashboard?.ws.terminate();
    dashboard = undefined;
  });

  /** Opens the screen on a tab once every bot's configuration is listed. */
  async function openTab(tab: 'Parameters' | 'Profiles' | 'History'): Promise<void> {
    await page.goto('/admin/configuration');
    await page.getByRole('heading', { name: 'Live Configuration' }).waitFor();
    await page.getByRole('tab', { name: 'Parameters' }).click();
    await expect.poll(() => page.getByRole('checkbox').count(), { timeout: 15_000 }).toBe(BOTS);
    if (tab !== 'Parameters') await page.getByRole('tab', { name: tab }).click();
  }

  it('applies a profile to 5 selected bots, and all 5 acknowledge it (History and the status list)', async () => {
    await openTab('Parameters');
    for (const botId of FIRST_FIVE) {
      await page.getByRole('checkbox', { name: new RegExp(`^${botId}\\b`) }).check();
    }
    await page.getByText('5 selected', { exact: true }).waitFor();

    await page.getByRole('tab', { name: 'Profiles' }).click();
    await page.getByText('5 bots selected on the Parameters tab').waitFor();
    await page
      .getByRole('group', { name: 'Profile Aggressive' })
      .getByRole('button', { name: 'Apply to Selected' })
      .click();
    await toastTitled(page, 'Profile Applied Successfully').waitFor({ timeout: 10_000 });
    await page.getByText('Aggressive applied to 5 bots', { exact: true }).first().waitFor();

    // History: the change record ends with all 5 acknowledged.
    await page.getByRole('tab', { name: 'History' }).click();
    const record = page
      .getByRole('list', { name: 'Configuration changes' })
      .getByRole('listitem')
      .filter({ hasText: 'Profile applied' })
      .first();
    await record.getByText('5 applied', { exact: true }).waitFor({ timeout: 10_000 });
    await expect.poll(() => record.innerText()).toContain('0 pending');
    expect(await record.innerText()).toContain('0 failed');

    // The bots did take it: the Aggressive profile hops every 2 s.
    expect(simulator.bots.slice(0, 5).map((bot) => bot.hopIntervalMs)).toEqual([
      2000, 2000, 2000, 2000, 2000,
    ]);

    // The status list: the five run Aggressive, applied.
    await page.getByRole('tab', { name: 'Parameters' }).click();
    for (const botId of FIRST_FIVE) {
      const row = page.getByTestId(`configuration-${botId}`);
      await expect.poll(() => row.innerText()).toMatch(/Aggressive/);
      expect(await row.innerText()).toMatch(/applied/);
    }
  });

  it('shows a push to the misbehaving bots failed: refused with its error, and unanswered past the deadline', async () => {
    await openTab('Parameters');
    for (const botId of [FAILING_BOT, SILENT_BOT]) {
      await page.getByRole('checkbox', { name: new RegExp(`^${botId}\\b`) }).check();
    }
    await page.getByRole('tab', { name: 'Profiles' }).click();
    await page.getByLabel('Reason (optional)').fill('failure drill');
    await page
      .getByRole('group', { name: 'Profile Stealth' })
      .getByRole('button', { name: 'Apply to Selected' })
      .click();
    // The toast follows the answers: neither bot took it, and it says so once the deadline passed.
    await toastTitled(page, 'Profile Partly Applied').waitFor({ timeout: 10_000 });
    await page
      .getByText(`0 of 2 bots applied it; 1 refused it (${FAILING_BOT}), 1 did not answer (${SILENT_BOT}).`, {
        exact: true,
      })
      .first()
      .waitFor();

    await page.getByRole('tab', { name: 'History' }).click();
    const record = page
      .getByRole('list', { name: 'Configuration changes' })
      .getByRole('listitem')
      .filter({ hasText: 'failure drill' });
    // The refusal comes at once, the silence counts once the 2 s deadline has passed.
    await record.getByText('2 failed', { exact: true }).waitFor({ timeout: 10_000 });
    await record.getByRole('button', { name: /^Show bots of profile applied/ }).click();
    const bots = record.getByRole('table');
    await bots
      .getByRole('row', { name: new RegExp(FAILING_BOT) })
      .getByText(SIMULATED_CONFIG_FAILURE)
      .waitFor();
    await bots
      .getByRole('row', { name: new RegExp(SILENT_BOT) })
      .getByText('no acknowledgement')
      .waitFor();
    // Neither bot took the values.
    expect(simulator.bots.slice(8).map((bot) => bot.hopIntervalMs)).toEqual([5000, 5000]);
  });

  it('rolls a change back from History after asking for a reason, and the bots get their earlier values', async () => {
    // A change to roll back: Stealth (15 s hops) on three bots, made through the API.
    const targets = ['ghost-06', 'ghost-07', 'ghost-08'];
    const applied = await page.request.post('/api/admin/configuration-profiles/stealth/apply', {
      data: { targetBotIds: targets, reason: 'quiet hours' },
      headers: sameOriginHeaders(page),
    });
    expect(applied.status()).toBe(200);
    await expect
      .poll(() => simulator.bots.slice(5, 8).map((bot) => bot.hopIntervalMs))
      .toEqual([15_000, 15_000, 15_000]);

    await openTab('History');
    const changes = page.getByRole('list', { name: 'Configuration changes' });
    const stealth = changes.getByRole('listitem').filter({ hasText: 'quiet hours' });
    await stealth.getByRole('button', { name: 'Roll back' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Roll back this change?' });
    // The confirmation waits for a reason.
    expect(await dialog.getByRole('button', { name: 'Roll Back' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Reason').fill('Too few finds at 15 s');
    await dialog.getByRole('button', { name: 'Roll Back' }).click();
    await toastTitled(page, 'Change Rolled Back').waitFor({ timeout: 10_000 });
    await page.getByText('Earlier values restored on 3 bots', { exact: true }).first().waitFor();

    const rollback = changes.getByRole('listitem').filter({ hasText: 'Too few finds at 15 s' });
    await rollback.getByText('Rollback', { exact: true }).waitFor();
    expect(await rollback.innerText()).toContain('rolls back an earlier change');
    await rollback.getByText('3 applied', { exact: true }).waitFor({ timeout: 10_000 });
    await rollback.getByRole('button', { name: /^Show bots of rollback/ }).click();
    await rollback.getByRole('table').getByText('Hop Frequency (ms): 15,000 → 5,000').first().waitFor();
    // Back to the 5 s hops they had before.
    expect(simulator.bots.slice(5, 8).map((bot) => bot.hopIntervalMs)).toEqual([5000, 5000, 5000]);
  });

  it('Emergency Stop silences every bot (the hop feed goes quiet) and Emergency Resume sets them hopping again', async () => {
    // A busy fleet, so a short quiet stretch says a lot: Aggressive (hops every 2 s) on every bot that
    // takes it (the misbehaving two keep their 5 s).
    const aggressive = await page.request.post('/api/admin/configuration-profiles/aggressive/apply', {
      data: { targetBotIds: simulator.bots.map((bot) => bot.ghostId), reason: 'busy fleet' },
      headers: sameOriginHeaders(page),
    });
    expect(aggressive.status()).toBe(200);
    await expect
      .poll(() => simulator.bots.slice(0, BOTS - 2).map((bot) => bot.hopIntervalMs))
      .toEqual(Array(BOTS - 2).fill(2000));
    dashboard = await hopFeedOf(page, suite.server.url);
    await openTab('Parameters');
    // The feed moves first: every bot hops.
    await expect.poll(() => hoppersSince(dashboard!, 0).size, { timeout: 15_000 }).toBe(BOTS);

    await page.getByRole('button', { name: 'Emergency Stop' }).click();
    const stop = page.getByRole('alertdialog', { name: 'Stop the whole bot network?' });
    await stop.getByLabel('Reason (optional)').fill('Game update rolling out');
    await stop.getByRole('button', { name: 'Stop All Bots' }).click();
    await toastTitled(page, 'Emergency Stop Activated').waitFor();
    await page.getByText(`Stopped ${BOTS} bots`, { exact: true }).first().waitFor();
    await page.getByText('The bot network is stopped').waitFor();
    await expect.poll(() => simulator.bots.filter((bot) => bot.paused).length).toBe(BOTS);

    // A hop already on the wire may still land; after that, nothing for 2 s, in which the fleet
    // (eight bots hopping every 2 s, two every 5 s) would otherwise send about ten.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const quietFrom = dashboard.frames.length;
    const botHops = simulator.counters.hops;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect([...hoppersSince(dashboard, quietFrom)]).toEqual([]);
    expect(simulator.counters.hops).toBe(botHops);

    await page.getByRole('button', { name: 'Emergency Resume' }).click();
    const resume = page.getByRole('alertdialog', { name: 'Resume the bot network?' });
    await resume.getByRole('button', { name: 'Resume Network' }).click();
    await toastTitled(page, 'Emergency Resume Activated').waitFor();
    await page.getByText(`Resumed ${BOTS} bots`, { exact: true }).first().waitFor();
    await page.getByRole('button', { name: 'Emergency Stop' }).waitFor();
    expect(await page.getByText('The bot network is stopped').count()).toBe(0);
    const resumedFrom = dashboard.frames.length;
    await expect.poll(() => hoppersSince(dashboard!, resumedFrom).size, { timeout: 10_000 }).toBe(BOTS);
  });

  it("shows the selected bot's values, and a change to one parameter leaves its profile's values alone", async () => {
    const ghost02 = simulator.bots[1];
    if (!ghost02) throw new Error('no ghost-02');
    const stealth = await page.request.post('/api/admin/configuration-profiles/stealth/apply', {
      data: { targetBotIds: ['ghost-02'], reason: 'quiet corner' },
      headers: sameOriginHeaders(page),
    });
    expect(stealth.status()).toBe(200);
    await expect.poll(() => ghost02.parameters?.stealthMode).toBe(true);

    await openTab('Parameters');
    await page.getByRole('checkbox', { name: /^ghost-02\b/ }).check();
    const hopFrequency = page.getByLabel('Hop Frequency (ms)', { exact: true });
    // The bot's STEALTH values, not the defaults (5000 ms, stealth off).
    await expect.poll(() => hopFrequency.inputValue()).toBe('15000');
    expect(await page.getByRole('switch', { name: 'Stealth Mode' }).getAttribute('aria-checked')).toBe(
      'true',
    );

    await page.getByLabel('Rate Limit (requests/min)', { exact: true }).fill('250');
    await page.getByText('1 parameter changed', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Apply Changes' }).click();
    await toastTitled(page, 'Bulk Update Successful').waitFor({ timeout: 10_000 });
    await page.getByText('Updated 1 configuration', { exact: true }).first().waitFor();
    // The bot runs the one change on top of its profile.
    expect(ghost02.parameters).toMatchObject({ rateLimit: 250, hopFrequencyMs: 15_000, stealthMode: true });
    expect(ghost02.hopIntervalMs).toBe(15_000);
  });

  it('says a push to every bot was sent, then follows the answers to a final state naming the failed bots', async () => {
    await openTab('Parameters');
    await page.getByRole('button', { name: 'Select All' }).click();
    await page.getByText(`${BOTS} selected`, { exact: true }).waitFor();
    await page.getByLabel('Max Retry Attempts', { exact: true }).fill('4');
    await page.getByRole('button', { name: 'Apply Changes' }).click();

    // At once: sent, the silent bot still owes an answer (its 2 s deadline), so nothing is "successful".
    await toastTitled(page, 'Bulk Update Sent').waitFor();
    await page
      .getByText(new RegExp(`^Sent to ${BOTS} bots: `))
      .first()
      .waitFor();
    expect(await page.getByText('Bulk Update Successful', { exact: true }).count()).toBe(0);

    // Then the refusal and, past the deadline, the silence: the final toast names both.
    await toastTitled(page, 'Bulk Update Incomplete').waitFor({ timeout: 10_000 });
    await page
      .getByText(
        `${BOTS - 2} of ${BOTS} bots applied it; 1 refused it (${FAILING_BOT}), 1 did not answer (${SILENT_BOT}).`,
        { exact: true },
      )
      .first()
      .waitFor({ timeout: 10_000 });
    expect(simulator.bots.slice(0, BOTS - 2).map((bot) => bot.parameters?.maxRetryAttempts)).toEqual(
      Array(BOTS - 2).fill(4),
    );
  });
});
