import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../../bots/options.ts';
import { seededRandom } from '../../bots/pets.ts';
import { Simulator } from '../../bots/simulator.ts';
import { ADMIN_LOGIN_PATH, PUBLIC_PAGE_PATHS, WEB_PAGE_PATHS } from '../../common/web-routes.ts';
import {
  type BrowserSuite,
  configureSystem,
  loginThroughApi,
  newPage,
  ORDER_PAGE_EXAMPLE,
  sameOriginHeaders,
  useBrowserSuite,
} from './harness.ts';
import { pushConfigurationToBots, seedBusyAuditLog, seedRows, untilAnswer } from './realistic-data.ts';

/*
 * axe-core on every page of the app, as a keyboard or screen-reader user meets it: a filled
 * database (keys, codes, a binding, a hosted file, an audit log, wallets, bots reporting and a
 * configuration push), signed in for the console, on a desktop and on a phone.
 */

const BOT_TOKEN = 'e2e-bot-token-accessibility-0123456789abcd';
const BOTS = 6;
const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/** Rules that fail at any impact: the page's outline, which best practice only rates moderate. */
const isOutlineRule = (id: string) =>
  id === 'heading-order' || id === 'region' || id === 'page-has-heading-one' || id.startsWith('landmark-');

/** The login screen is only shown signed out; every other page is looked at signed in. */
const SIGNED_OUT_PATHS = new Set<string>([...PUBLIC_PAGE_PATHS, ORDER_PAGE_EXAMPLE, ADMIN_LOGIN_PATH]);

/**
 * Waits until the page shows its data: its h1 or form, no loading text or busy placeholder left, and on
 * Script Management the editor with its script.
 */
async function waitForContent(page: Page, path: string): Promise<void> {
  // The login screen is a form; every other page opens with its h1 (axe checks that one is there).
  await page
    .locator(path === ADMIN_LOGIN_PATH ? 'form' : 'h1')
    .first()
    .waitFor();
  if (path === '/admin/script-management') {
    await page.locator('.cm-content').waitFor();
  }
  await expect
    .poll(
      async () =>
        (await page.getByText(/^Loading\b/).count()) + (await page.locator('[aria-busy="true"]').count()),
      {
        timeout: 15_000,
      },
    )
    .toBe(0);
  // Two frames: what the last answer rendered is laid out before axe measures colours and sizes.
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
}

/** One finding, readable in a test report: where, which rule, how bad, which elements. */
function describeViolations(
  where: string,
  violations: Awaited<ReturnType<AxeBuilder['analyze']>>['violations'],
): string[] {
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || isOutlineRule(v.id))
    .map((v) => {
      const nodes = v.nodes.slice(0, 5).map((node) => {
        const html = node.html.replace(/\s+/g, ' ').slice(0, 160);
        const why = node.failureSummary?.split('\n').slice(1, 2).join(' ').trim() ?? '';
        return `    ${node.target.join(' ')}\n      ${html}${why ? `\n      ${why}` : ''}`;
      });
      const more = v.nodes.length > 5 ? `\n    …and ${v.nodes.length - 5} more` : '';
      return `${where}: ${v.id} (${v.impact}, ${v.nodes.length} node${v.nodes.length === 1 ? '' : 's'}) ${v.help}\n${nodes.join('\n')}${more}`;
    });
}

describe('accessibility of every page (axe-core)', () => {
  const suite: BrowserSuite = useBrowserSuite({
    BOT_TOKEN,
    // The audit log's callers are told apart by X-Forwarded-For, refused from their second call.
    TRUST_PROXY: 'true',
    RATE_LIMIT_LOADER: '1',
  });
  let simulator: Simulator;

  beforeAll(async () => {
    simulator = new Simulator(
      {
        ...DEFAULT_OPTIONS,
        placeIds: [...DEFAULT_OPTIONS.placeIds],
        bots: BOTS,
        hopIntervalMs: 1_000,
        url: suite.server.url,
        token: BOT_TOKEN,
        statusIntervalMs: 0,
      },
      seededRandom(23),
      () => {},
    );
    await simulator.start();
    const { context, page } = await newPage(suite.browser, suite.server.url);
    const { origin } = sameOriginHeaders(page);
    await configureSystem(page, 30, {
      BTC: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
      ETH: '0x71C7656EC7ab88b098defB751B7401B5f6d8976F',
    });
    await seedRows(page, origin);
    await seedBusyAuditLog(page, origin, 5);
    await untilAnswer<{ configurations: unknown[] }>(
      page,
      '/api/admin/configurations',
      (answer) => answer.configurations.length === BOTS,
      `all ${BOTS} bots listed`,
      20,
    );
    const botIds = Array.from({ length: BOTS }, (_, i) => `ghost-${String(i + 1).padStart(2, '0')}`);
    await pushConfigurationToBots(page, origin, botIds);
    await context.close();
  }, 60_000);
  afterAll(async () => {
    await simulator?.stop();
  });

  for (const size of WIDTHS) {
    // A ceiling, not a measure: every page in one walk (about 36 pages and tabs) on a shared CI machine.
    it(`finds no serious or critical violation and a sound outline on every page at ${size.width} px`, {
      timeout: 360_000,
    }, async () => {
      const { page } = suite;
      await page.setViewportSize(size);
      const problems: string[] = [];
      const analyse = async (where: string) => {
        // axe.run in the page itself (legacy mode) rather than runPartial in each frame and finishRun in
        // a new blank page: the same findings (the app has no cross-origin frame, the one thing legacy
        // mode leaves out) in a third of the time; and only the violations' details, the one list read here.
        const results = await new AxeBuilder({ page })
          .withTags(TAGS)
          .setLegacyMode()
          .options({ resultTypes: ['violations'] })
          .analyze();
        problems.push(...describeViolations(`${where} at ${size.width} px`, results.violations));
      };
      // Signed out first (the login form), then signed in for the console.
      // An order page is at a path of its own per order: one stands for them (payments.e2e.ts checks its other states).
      const ordered = [
        ...WEB_PAGE_PATHS.filter((p) => SIGNED_OUT_PATHS.has(p)),
        ORDER_PAGE_EXAMPLE,
        ...WEB_PAGE_PATHS.filter((p) => !SIGNED_OUT_PATHS.has(p)),
      ];
      let signedIn = false;
      for (const path of ordered) {
        if (!SIGNED_OUT_PATHS.has(path) && !signedIn) {
          await loginThroughApi(page);
          signedIn = true;
        }
        await page.goto(path);
        await waitForContent(page, path);
        await analyse(path);
        // Every other tab of the screen is a screen of its own to a user.
        const tabs = page.locator('main [role="tab"][aria-selected="false"]');
        const names = await tabs.allInnerTexts();
        for (const name of names) {
          await page.locator('main [role="tab"]', { hasText: name }).first().click();
          await waitForContent(page, path);
          await analyse(`${path}, tab ${name.replace(/\s+/g, ' ').trim()}`);
        }
      }
      expect(problems.join('\n\n')).toBe('');
    });
  }
});
