import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../../bots/options.ts';
import { seededRandom } from '../../bots/pets.ts';
import { Simulator } from '../../bots/simulator.ts';
import type { AnalysisResponse } from '../../common/ai-health.ts';
import {
  type BrowserSuite,
  loginThroughApi,
  newPage,
  sameOriginHeaders,
  useBrowserSuite,
} from './harness.ts';
import { pushConfigurationToBots, seedBusyAuditLog, seedRows, untilAnswer } from './realistic-data.ts';

/*
 * Every admin screen, on a busy day (70 bots, long notes, ids, device and file names, a long audit
 * log, a configuration push to every bot), at the window sizes operators use: nothing may scroll
 * sideways, neither the page nor a card. Only on a phone may a table scroll inside its own box.
 */

const BOT_TOKEN = 'e2e-bot-token-screen-widths-0123456789ab';
const BOTS = 70;
const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 1024, height: 768 },
  { width: 768, height: 1024 },
  { width: 390, height: 844 },
];
const PHONE_WIDTH = 390;

/** One state of one screen: its route, and what to do there once it shows (a tab, a row opened). */
interface Screen {
  name: string;
  path: string;
  /** What the screen waits for on the server before it is worth looking at. */
  ready?: (page: Page) => Promise<void>;
  open?: (page: Page) => Promise<void>;
}

/**
 * The server's analysis runs once a minute from its start, and on Generate Report: asks for a report,
 * as the screen's Generate Report button does, until the analysis has findings (the busy audit log's
 * burst of failed logins, once the analysis reads that far), so AI Debugging is walked with them on
 * every run, without waiting for the minute.
 */
async function untilAnalysisFoundSomething(page: Page): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const generated = await page.request.post('/api/admin/system-health/generate', {
      headers: sameOriginHeaders(page),
    });
    expect(generated.status(), await generated.text()).toBe(200);
    const analysis = (await (await page.request.get('/api/admin/ai-analysis')).json()) as AnalysisResponse;
    if (analysis.analysisResults.length > 0) return;
    if (Date.now() > deadline) throw new Error('no analysis finding 30 s after the busy audit log');
    await page.waitForTimeout(1000);
  }
}

const tab = (name: string | RegExp) => async (page: Page) => {
  await page.getByRole('tab', { name }).click();
};

const SCREENS: Screen[] = [
  { name: 'Dashboard', path: '/admin/dashboard' },
  { name: 'Live Monitoring: Live Activity', path: '/admin/live-monitoring' },
  { name: 'Live Monitoring: Scanner Status', path: '/admin/live-monitoring', open: tab('Scanner Status') },
  { name: 'Live Monitoring: Pet Discoveries', path: '/admin/live-monitoring', open: tab('Pet Discoveries') },
  { name: 'Live Monitoring: Performance', path: '/admin/live-monitoring', open: tab('Performance') },
  { name: 'Server Pool', path: '/admin/server-pool' },
  { name: 'Live Configuration: Overview', path: '/admin/configuration' },
  { name: 'Live Configuration: Parameters', path: '/admin/configuration', open: tab('Parameters') },
  { name: 'Live Configuration: Profiles', path: '/admin/configuration', open: tab('Profiles') },
  {
    name: 'Live Configuration: History, a push to every bot opened',
    path: '/admin/configuration',
    open: async (page) => {
      await page.getByRole('tab', { name: 'History' }).click();
      await page
        .getByRole('button', { name: /^Show bots of profile applied/ })
        .first()
        .click();
      await page.getByRole('table', { name: /^Bots of change/ }).waitFor();
    },
  },
  { name: 'System Configuration: Overview', path: '/admin/system-configuration' },
  {
    name: 'System Configuration: Slot Management',
    path: '/admin/system-configuration',
    open: tab('Slot Management'),
  },
  {
    name: 'System Configuration: Payment Wallets',
    path: '/admin/system-configuration',
    open: tab(/^Payment Wallets/),
  },
  { name: 'Redemption Codes', path: '/admin/redemption-keys' },
  { name: 'License Keys', path: '/admin/license-keys' },
  { name: 'Security & Analytics', path: '/admin/security' },
  { name: 'Script Management', path: '/admin/script-management' },
  { name: 'Scripts Page Editor: Global Settings', path: '/admin/scripts-page-editor' },
  { name: 'Scripts Page Editor: Sections', path: '/admin/scripts-page-editor', open: tab('Sections') },
  { name: 'Scripts Page Editor: Preview', path: '/admin/scripts-page-editor', open: tab('Preview') },
  { name: 'File Manager', path: '/admin/file-manager' },
  { name: 'Script Keys', path: '/admin/script-keys' },
  { name: 'Hardware Bindings', path: '/admin/hardware-bindings' },
  { name: 'AI Debugging: Analysis Results', path: '/admin/ai-debugging', ready: untilAnalysisFoundSomething },
  { name: 'AI Debugging: AI Recommendations', path: '/admin/ai-debugging', open: tab(/^AI Recommendations/) },
];

/** Something that scrolls sideways: what it is (by its nearest heading) and by how much. */
interface SidewaysScroll {
  element: string;
  by: number;
  /** It is the box of a table (the one place a phone may scroll sideways). */
  tableBox: boolean;
}

/**
 * Everything on the page that scrolls sideways: the page itself (naming what sticks out past the
 * window), and every box whose overflow-x lets it scroll and whose content is wider than it. A code
 * editor scrolling its long lines is an editor, not a card, and is left out.
 */
function findSidewaysScrolling(page: Page): Promise<SidewaysScroll[]> {
  return page.evaluate(() => {
    /** Where an element is: the nearest heading above it or inside it, and its table's first headers. */
    const describe = (element: Element): string => {
      let heading = '';
      for (let at: Element | null = element; at && !heading; at = at.parentElement) {
        heading = at.querySelector('h1, h2, h3, h4, [data-slot="card-title"]')?.textContent?.trim() ?? '';
      }
      const id = element.id ? `#${element.id}` : '';
      // A few of its classes: enough to find it in the source.
      const classes = [...element.classList]
        .slice(0, 5)
        .map((name) => `.${name}`)
        .join('');
      const label = element.getAttribute('aria-label') ?? element.getAttribute('data-testid');
      const table = element.querySelector('table');
      const columns = table
        ? ` table [${[...table.querySelectorAll('thead th')]
            .slice(0, 3)
            .map((th) => th.textContent?.trim())
            .join(', ')}…]`
        : '';
      return `${element.tagName.toLowerCase()}${id}${classes}${label ? ` "${label}"` : ''}${columns} under "${heading}"`;
    };
    const found: { element: string; by: number; tableBox: boolean }[] = [];
    const page = document.documentElement;
    const pageBy = page.scrollWidth - window.innerWidth;
    if (pageBy > 0) {
      // The outermost elements past the window's right edge name the culprit.
      const past = [...document.body.querySelectorAll('*')].filter((element) => {
        const parent = element.parentElement;
        return (
          element.getBoundingClientRect().right > window.innerWidth + 1 &&
          parent !== null &&
          parent.getBoundingClientRect().right <= window.innerWidth + 1
        );
      });
      found.push({
        element: `the page, past the window: ${past.slice(0, 3).map(describe).join('; ') || 'unknown'}`,
        by: pageBy,
        tableBox: false,
      });
    }
    for (const element of document.body.querySelectorAll('*')) {
      const { overflowX } = getComputedStyle(element);
      if (overflowX !== 'auto' && overflowX !== 'scroll') continue;
      // A pixel of rounding is not a scrollbar anyone sees.
      const by = element.scrollWidth - element.clientWidth;
      if (by <= 1 || element.closest('.cm-editor')) continue;
      found.push({
        element: describe(element),
        by,
        tableBox: element.querySelector(':scope > table') !== null,
      });
    }
    return found;
  });
}

/** Waits for a screen's heading and for its lists to finish loading. */
async function waitForScreen(page: Page): Promise<void> {
  await page.locator('main h1').first().waitFor();
  await expect
    .poll(
      () =>
        page
          .locator('main')
          .getByText(/^Loading\b/)
          .count(),
      { timeout: 10_000 },
    )
    .toBe(0);
}

/** Lets the page lay itself out at a new window size (two frames: resize observers, then paint). */
async function settle(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
}

describe('admin screens at every window width', () => {
  const suite: BrowserSuite = useBrowserSuite({
    BOT_TOKEN,
    // The busy audit log's callers are told apart by X-Forwarded-For, refused from their second call.
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
        url: suite.server.url,
        token: BOT_TOKEN,
        statusIntervalMs: 0,
      },
      // The same finds and failures on every run (which pet names, how long), so runs compare.
      seededRandom(20),
      () => {},
    );
    await simulator.start();
    const { context, page } = await newPage(suite.browser, suite.server.url);
    const { origin } = sameOriginHeaders(page);
    await seedRows(page, origin);
    await seedBusyAuditLog(page, origin, 60);
    // Every bot has its configuration once it has said hello: then push to all of them.
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

  it('no page or card scrolls sideways at 1280, 1024 and 768 px; on a phone only tables do', {
    timeout: 120_000,
  }, async () => {
    const { page } = suite;
    await loginThroughApi(page);
    const problems: string[] = [];
    for (const screen of SCREENS) {
      await page.setViewportSize(WIDTHS[0]!);
      await screen.ready?.(page);
      await page.goto(screen.path);
      await waitForScreen(page);
      if (screen.open) {
        await screen.open(page);
        await waitForScreen(page);
      }
      for (const size of WIDTHS) {
        await page.setViewportSize(size);
        await settle(page);
        for (const scroll of await findSidewaysScrolling(page)) {
          if (size.width === PHONE_WIDTH && scroll.tableBox) continue;
          problems.push(`${screen.name} at ${size.width} px: ${scroll.element} scrolls ${scroll.by} px`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('shows every sidebar entry whole at 1280x800 and 1440x900, and Reconnect inside the sidebar', async () => {
    const { page } = suite;
    await loginThroughApi(page);
    // A socket that closes at once: the shell is disconnected and offers Reconnect.
    await page.routeWebSocket(/\/ws$/, (socket) => socket.close());
    await page.goto('/admin/dashboard');
    await waitForScreen(page);
    const sidebar = page.locator('#admin-sidebar');
    const nav = sidebar.getByRole('navigation', { name: 'Admin' });
    for (const size of [
      { width: 1280, height: 800 },
      { width: 1440, height: 900 },
    ]) {
      await page.setViewportSize(size);
      await settle(page);
      const navBox = await nav.boundingBox();
      const hidden: string[] = [];
      for (const link of await nav.getByRole('link').all()) {
        const box = await link.boundingBox();
        if (!navBox || !box || box.y < navBox.y || box.y + box.height > navBox.y + navBox.height + 0.5) {
          hidden.push(await link.innerText());
        }
      }
      expect(hidden, `entries below the fold at ${size.width}x${size.height}`).toEqual([]);
      // No line of an entry (its description above all) is cut short with an ellipsis.
      const cut = await nav
        .locator('a span')
        .evaluateAll((spans) =>
          spans
            .filter(
              (span) =>
                span.scrollWidth > span.clientWidth + 1 || getComputedStyle(span).textOverflow === 'ellipsis',
            )
            .map((span) => span.textContent),
        );
      expect(cut, `cut at ${size.width}x${size.height}`).toEqual([]);

      const reconnect = sidebar.getByRole('button', { name: 'Reconnect' });
      await reconnect.waitFor();
      const [sidebarBox, buttonBox] = [await sidebar.boundingBox(), await reconnect.boundingBox()];
      expect(
        sidebarBox &&
          buttonBox &&
          buttonBox.x >= sidebarBox.x &&
          buttonBox.x + buttonBox.width <= sidebarBox.x + sidebarBox.width,
        `Reconnect inside the sidebar at ${size.width}x${size.height}`,
      ).toBe(true);
      expect(await sidebar.getByTestId('sidebar-more-below').count()).toBe(0);
    }

    // A window too short for the list: a fade and an arrow say it scrolls, until its end is reached.
    await page.setViewportSize({ width: 1280, height: 560 });
    const moreBelow = sidebar.getByTestId('sidebar-more-below');
    await moreBelow.waitFor();
    await nav.getByRole('link', { name: /^AI Debugging/ }).scrollIntoViewIfNeeded();
    await moreBelow.waitFor({ state: 'detached' });
  });
});
