import { describe, expect, it } from 'vitest';
import { ORDER_PAGE_EXAMPLE, useBrowserSuite } from './harness.ts';

/** What each public page shows before any of its script has run, and what it shows once hydrated. */
const PAGES = [
  {
    path: '/',
    heading: 'Scanline',
    before: ['Join the community chat', 'Premium Access', 'What You Get', 'Get Scripts'],
    loaded: '30/30 slots available',
  },
  {
    path: '/buyer',
    heading: 'Premium Access - Purchase',
    before: ['Accepted Cryptocurrencies', 'How to Purchase', 'Send the payment'],
    loaded: '30/30 slots available',
  },
  {
    path: '/scripts',
    heading: 'Loading scripts...',
    before: ['How to Use', 'Open your executor'],
    loaded: 'Scanline Scripts',
  },
  {
    path: '/key',
    heading: 'My key',
    before: ['Your script key', 'Check key'],
    loaded: 'Your script key',
  },
  {
    // The build cannot know the order: its HTML is the loading state, the address is read once it runs.
    path: ORDER_PAGE_EXAMPLE,
    heading: 'Your order',
    before: ['Loading your order...'],
    loaded: 'Order not found',
  },
] as const;

describe('public pages arrive as HTML and hydrate', () => {
  const suite = useBrowserSuite();

  for (const { path, heading, before } of PAGES) {
    it(`${path} shows its layout and text without running any script`, async () => {
      const context = await suite.browser.newContext({ baseURL: suite.server.url, javaScriptEnabled: false });
      try {
        const page = await context.newPage();
        const res = await page.goto(path);
        expect(res?.status()).toBe(200);
        expect(await page.getByRole('heading', { level: 1, name: heading }).count()).toBe(1);
        expect(await page.getByRole('main').count()).toBe(1);
        for (const text of before) expect(await page.getByText(text).first().isVisible(), text).toBe(true);
      } finally {
        await context.close();
      }
    });
  }

  it('shows the landing page loading state in the HTML (the buy button reads Loading... until data comes)', async () => {
    const html = await (await fetch(`${suite.server.url}/`, { headers: { accept: 'text/html' } })).text();
    expect(html).toContain('data-page="landing"');
    expect(html).toMatch(/<button[^>]*disabled[^>]*>Loading\.\.\.<\/button>/);
  });

  for (const { path, loaded } of PAGES) {
    it(`${path} takes over its HTML, fills in the live figures and logs no error`, async () => {
      const { page } = suite;
      const problems: string[] = [];
      page.on('console', (message) => {
        // Errors only: warnings are console-clean.e2e.ts's (the Permissions-Policy's among them).
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(path);
      await page.getByText(loaded).first().waitFor();
      // The page is the prerendered one taken over, not a second copy rendered beside it.
      expect(await page.getByRole('main').count()).toBe(1);
      expect(problems).toEqual([]);
    });
  }

  it('/key keeps a key pasted before its script ran, and checks it', async () => {
    const { page } = suite;
    // A slow phone: the page's scripts arrive only after the buyer pasted the key.
    let release = () => {};
    const scriptsHeld = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/assets/*.js', async (route) => {
      await scriptsHeld;
      await route.continue();
    });
    await page.goto('/key', { waitUntil: 'commit' });
    const field = page.getByLabel('Script key');
    await field.fill('SK-PASTED-BEFORE-HYDRATION');
    release();
    const button = page.getByRole('button', { name: 'Check key' });
    await expect.poll(() => button.isEnabled()).toBe(true);
    await button.click();
    await page.getByRole('alert').waitFor();
    expect(await field.inputValue()).toBe('SK-PASTED-BEFORE-HYDRATION');
  });
});
