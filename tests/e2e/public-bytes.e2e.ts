import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { E2E_DIST, ORDER_PAGE_EXAMPLE, useBrowserSuite } from './harness.ts';

/**
 * A public page's JavaScript budget: 60 KB (counted as 1000 bytes, the stricter reading), compressed
 * as the browser fetches it; response headers are counted apart.
 */
const PUBLIC_SCRIPT_BUDGET = 60_000;

/**
 * Sources that belong to the admin console: its screens, the libraries only they use, and React's
 * own runtime and router (the public pages run on Preact, see vite.public.config.ts).
 */
const ADMIN_SOURCES = [
  /node_modules\/react-dom\//,
  /node_modules\/react-router\//,
  /\/web\/pages\/admin\//,
  /node_modules\/@codemirror\//,
  /node_modules\/@lezer\//,
  /node_modules\/uplot\//,
  /node_modules\/@tanstack\/react-virtual\//,
  /node_modules\/@tanstack\/virtual-core\//,
  /node_modules\/@johnnymorganz\/stylua\//,
  /node_modules\/zod\//,
  /node_modules\/@radix-ui\/react-tooltip\//,
];

/** What each public page shows once its code and its data are in. */
const SHOWN_WHEN_LOADED: Record<string, string> = {
  '/': 'slots available',
  '/buyer': 'Premium Access - Purchase',
  '/scripts': 'How to Use',
  '/key': 'Your script key',
  [ORDER_PAGE_EXAMPLE]: 'Order not found',
};

interface ScriptOnWire {
  url: string;
  /** The body's bytes as received (compressed when the server compressed it). */
  bodyBytes: number;
  /** The response's header bytes. */
  headerBytes: number;
  encoding: string;
}

/**
 * Opens `path` in a fresh page, waits until it shows its content and nothing is in flight, and
 * returns every script response as it came over the network (CDP's byte counts).
 */
async function scriptsOnWire(page: Page, path: string): Promise<ScriptOnWire[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  // Nothing from the cache: every byte the visit needs comes over the wire.
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const inFlight = new Set<string>();
  const scripts = new Map<string, { url: string; encoding: string; headerBytes: number }>();
  const finished: ScriptOnWire[] = [];
  cdp.on('Network.requestWillBeSent', (event) => inFlight.add(event.requestId));
  cdp.on('Network.loadingFailed', (event) => inFlight.delete(event.requestId));
  cdp.on('Network.responseReceived', (event) => {
    if (event.type !== 'Script') return;
    const headers = Object.fromEntries(
      Object.entries(event.response.headers).map(([name, value]) => [name.toLowerCase(), String(value)]),
    );
    scripts.set(event.requestId, {
      url: event.response.url,
      encoding: headers['content-encoding'] ?? 'identity',
      // Received so far, when the headers are in: the headers themselves.
      headerBytes: event.response.encodedDataLength,
    });
  });
  cdp.on('Network.loadingFinished', (event) => {
    inFlight.delete(event.requestId);
    const script = scripts.get(event.requestId);
    if (script) finished.push({ ...script, bodyBytes: event.encodedDataLength - script.headerBytes });
  });
  await page.goto(path);
  await page
    .getByText(SHOWN_WHEN_LOADED[path] ?? '')
    .first()
    .waitFor();
  await expect.poll(() => inFlight.size).toBe(0);
  await cdp.detach();
  return finished;
}

/** The source files a built script was made from, read from its (never served) source map. */
function sourcesOf(scriptUrl: string): string[] {
  const map = `${join(E2E_DIST, 'web', new URL(scriptUrl).pathname)}.map`;
  if (!existsSync(map)) return [];
  return (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources;
}

/**
 * Whether Brotli makes the built script smaller: a chunk of a few bytes (one shared icon) can come out
 * larger, so the build keeps no .br copy of it and sending it as it is costs nothing.
 */
function brotliShrinks(scriptUrl: string): boolean {
  const content = readFileSync(join(E2E_DIST, 'web', new URL(scriptUrl).pathname));
  return brotliCompressSync(content).length < content.length;
}

/** kB as Vite and the issue count them (1000 bytes). */
function kilobytes(bytes: number): string {
  return `${(bytes / 1000).toFixed(1)} kB`;
}

describe('public pages over the wire', () => {
  const suite = useBrowserSuite();

  for (const path of Object.keys(SHOWN_WHEN_LOADED)) {
    it(`${path} fetches its scripts compressed and none of the admin console's code`, async () => {
      const scripts = await scriptsOnWire(suite.page, path);
      const body = scripts.reduce((sum, s) => sum + s.bodyBytes, 0);
      const headers = scripts.reduce((sum, s) => sum + s.headerBytes, 0);
      console.log(
        `${path}: ${scripts.length} scripts, ${kilobytes(body)} of JavaScript (+ ${kilobytes(headers)} of headers)\n` +
          scripts
            .map((s) => `  ${new URL(s.url).pathname} ${s.encoding} ${kilobytes(s.bodyBytes)}`)
            .join('\n'),
      );
      expect(scripts.length).toBeGreaterThan(0);
      expect(scripts.filter((s) => s.encoding !== 'br' && brotliShrinks(s.url)).map((s) => s.url)).toEqual(
        [],
      );
      const adminCode = scripts.flatMap((s) =>
        sourcesOf(s.url)
          .filter((source) => ADMIN_SOURCES.some((pattern) => pattern.test(source)))
          .map((source) => `${new URL(s.url).pathname}: ${source}`),
      );
      expect(adminCode).toEqual([]);
      expect(body).toBeLessThanOrEqual(PUBLIC_SCRIPT_BUDGET);
    });
  }
});
