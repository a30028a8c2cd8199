import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loginThroughApi, useBrowserSuite } from './harness.ts';

/*
 * Live Monitoring on a phone (390 x 844), where the issue found the Server Hop Timeline cut: the time
 * shown as "9:4", the bot badge on three lines, place ids past the row's edge, and the error text and
 * "Attempt N of M servers" hidden under a fixed row height.
 */

const BOT_TOKEN = 'e2e-bot-token-live-monitoring-narrow-01';
const PLACE = '109983668079237';
const ERROR = 'Teleport failed: the game server refused the join because it is full (code 772)';

/** Reports hops as a bot that batches over HTTP: a failure on the third of five servers, then a success. */
async function reportHops(page: Page, ghostId: string): Promise<void> {
  const hop = (n: number, over: Record<string, unknown>) => ({
    type: 'server_hop',
    payload: {
      fromJobId: `${ghostId}-job-${n - 1}-0123456789abcdef`,
      toJobId: `${ghostId}-job-${n}-0123456789abcdef`,
      fromPlaceId: PLACE,
      toPlaceId: PLACE,
      success: true,
      latencyMs: 1234,
      hopReason: 'error_recovery',
      ...over,
    },
  });
  const res = await page.request.post('/api/bot/events', {
    headers: { authorization: `Bearer ${BOT_TOKEN}` },
    data: {
      ghostId,
      events: [
        hop(1, { success: false, errorMessage: ERROR, attemptNumber: 3, totalServersAttempted: 5 }),
        hop(2, { attemptNumber: 4, totalServersAttempted: 5 }),
      ],
    },
  });
  expect(res.status(), await res.text()).toBeLessThan(300);
}

/** Reports one find with the longest values a real one has (the walk saw the page widen by 81 px). */
async function reportDiscovery(page: Page, ghostId: string): Promise<void> {
  const res = await page.request.post('/api/bot/events', {
    headers: { authorization: `Bearer ${BOT_TOKEN}` },
    data: {
      ghostId,
      events: [
        {
          type: 'pet_discovered',
          payload: {
            name: 'Gold Bombardiro Crocodilo Supremo Deluxe',
            type: 'Secret Brainrot Mythical Variant',
            value: '$12.5M/s',
            count: 2,
            placeid: PLACE,
            jobid: `${ghostId}-7f3a9c21-0123-4567-89ab-cdef01234567-long-job-id`,
          },
        },
      ],
    },
  });
  expect(res.status(), await res.text()).toBeLessThan(300);
}

/** How far the page scrolls sideways (0 when it does not). */
const pageOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** What of each timeline row a user cannot see: parts outside the row's box, or cut with an ellipsis. */
function hiddenParts(page: Page) {
  return page.getByRole('list', { name: 'Server hops' }).evaluate((list) => {
    const problems: string[] = [];
    for (const row of Array.from(list.querySelectorAll('li'))) {
      const box = row.querySelector<HTMLElement>('[data-hop-box]') ?? row;
      const edge = box.getBoundingClientRect();
      for (const part of Array.from(box.querySelectorAll<HTMLElement>('*'))) {
        const r = part.getBoundingClientRect();
        const text = (part.textContent ?? '').slice(0, 40);
        if (r.left < edge.left - 1 || r.right > edge.right + 1 || r.bottom > edge.bottom + 1)
          problems.push(`outside the row: "${text}"`);
        if (part.scrollWidth > part.clientWidth + 1 && getComputedStyle(part).overflow !== 'visible')
          problems.push(`cut short: "${text}"`);
      }
      // Rows must not overlap the next one (a fixed height too small for the content).
      const next = row.nextElementSibling?.getBoundingClientRect();
      if (next && next.top < row.getBoundingClientRect().bottom - 1) problems.push('rows overlap');
    }
    return problems;
  });
}

/**
 * What of the feed row holding `text` a user cannot see: text cut short (an ellipsis, a line clamp)
 * or drawn outside its row, or the row running into the next one.
 */
function cutEventParts(page: Page, list: string, text: string) {
  return page.getByRole('list', { name: list }).evaluate((element, wanted) => {
    const row = Array.from(element.querySelectorAll('li')).find((li) => li.textContent?.includes(wanted));
    if (!row) return [`no row with "${wanted}"`];
    const problems: string[] = [];
    const edge = row.getBoundingClientRect();
    for (const part of [row, ...Array.from(row.querySelectorAll<HTMLElement>('*'))]) {
      const r = part.getBoundingClientRect();
      const said = (part.textContent ?? '').slice(0, 40);
      if (r.bottom > edge.bottom + 1 || r.right > edge.right + 1) problems.push(`outside the row: "${said}"`);
      const clips = getComputedStyle(part).overflow !== 'visible';
      if (clips && part.scrollWidth > part.clientWidth + 1) problems.push(`cut short: "${said}"`);
      if (clips && part.scrollHeight > part.clientHeight + 1) problems.push(`lines hidden: "${said}"`);
    }
    const next = row.nextElementSibling?.getBoundingClientRect();
    if (next && next.top < edge.bottom - 1 && next.top > edge.top) problems.push('rows overlap');
    return problems;
  }, text);
}

describe('Live Monitoring at 390 px', () => {
  const suite = useBrowserSuite({ BOT_TOKEN });

  it('shows every part of a hop row, with nothing scrolling sideways', async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 390, height: 844 });
    await loginThroughApi(page);
    await reportHops(page, 'ghost-05');
    await page.goto('/admin/live-monitoring');

    const rows = page.getByRole('list', { name: 'Server hops' }).getByRole('listitem');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
    const failed = rows.filter({ hasText: 'Failed' });
    await failed.scrollIntoViewIfNeeded();

    // The whole time, the badge on one line, and the failure's error and attempt texts.
    expect(await failed.innerText()).toMatch(/\b\d{1,2}:\d{2}:\d{2}\s?[AP]M\b/);
    const badge = failed.getByText('Bot ghost-05', { exact: true });
    const lineHeight = await badge.evaluate((el) => Number.parseFloat(getComputedStyle(el).lineHeight));
    expect((await badge.boundingBox())?.height).toBeLessThan(lineHeight * 2);
    await failed.getByText(ERROR).waitFor();
    await failed.getByText('Attempt 3 of 5 servers').waitFor();
    await rows.filter({ hasText: 'Success' }).getByText('Attempt 4 of 5 servers').waitFor();

    expect(await hiddenParts(page)).toEqual([]);
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  });

  it("shows each event's message whole in the Live Events Feed and the Live Event Feed", async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 390, height: 844 });
    await loginThroughApi(page);
    await reportHops(page, 'ghost-06');
    await page.goto('/admin/live-monitoring');
    const message = `Bot ghost-06 failed to hop: ${ERROR}`;
    for (const list of ['Live Events Feed', 'Live Event Feed']) {
      const failure = page
        .getByRole('list', { name: list })
        .getByRole('listitem')
        .filter({ hasText: message });
      await failure.waitFor({ timeout: 15_000 });
      await failure.scrollIntoViewIfNeeded();
      expect(await cutEventParts(page, list, message), list).toEqual([]);
    }
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  });

  it('fits a find with a long name and job id in its card, with nothing scrolling sideways', async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 390, height: 844 });
    await loginThroughApi(page);
    await reportDiscovery(page, 'ghost-07');
    await page.goto('/admin/live-monitoring');
    await page.getByRole('tab', { name: 'Pet Discoveries' }).click();
    const card = page.getByRole('group', { name: 'Gold Bombardiro Crocodilo Supremo Deluxe' });
    await card.waitFor({ timeout: 15_000 });
    await card.getByText('$12.5M/s', { exact: true }).waitFor();
    const box = await card.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  });
});
