import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDirectory } from '../../build/precompress.ts';
import { buildTestApp, type TestApp } from '../test/helper.ts';
import { cacheControlFor, IMMUTABLE_CACHE, REVALIDATE_CACHE } from './web-app.ts';

const INDEX_HTML = `<!doctype html><html><head><title>Scanline</title><script type="module" src="/assets/index-Ab12_x-Y.js"></script></head><body><div id="root"></div>${'<!-- padding so compression pays -->'.repeat(20)}</body></html>`;
/** A prerendered public page (build/prerender.ts), told apart by its name. */
const pageHtml = (name: string) =>
  INDEX_HTML.replace(
    '<div id="root"></div>',
    `<div id="root" data-page="${name}"><main>${name}</main></div>`,
  );
const SCRIPT = `export const app = ${JSON.stringify('console.log("app");'.repeat(200))};\n`;

/** Vite's publicDir: copied as it is to the build's root (robots.txt, the icons). */
const WEB_PUBLIC = new URL('../../web/public/', import.meta.url);

/** A built app as Vite writes it (hashed assets, the public files, a source map), compressed by the build step. */
async function writeBuild(dir: string): Promise<void> {
  cpSync(WEB_PUBLIC, dir, { recursive: true });
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), INDEX_HTML);
  writeFileSync(join(dir, 'assets', 'index-Ab12_x-Y.js'), SCRIPT);
  writeFileSync(join(dir, 'assets', 'index-Ab12_x-Y.js.map'), '{"version":3,"sources":["web/main.tsx"]}');
  mkdirSync(join(dir, 'prerendered'));
  for (const name of ['landing', 'buyer', 'scripts', 'not-found']) {
    writeFileSync(join(dir, 'prerendered', `${name}.html`), pageHtml(name));
  }
  await precompressDirectory(dir);
}

/** The headers of an answer, but the clock's (Date), which may tick between two requests. */
function headersBesidesDate(headers: Record<string, unknown>): Record<string, unknown> {
  const { date: _date, ...rest } = headers;
  return rest;
}

/**
 * Whether a crawler obeying `robots` may fetch `path`, as RFC 9309 says: the group for every agent,
 * its longest matching rule wins (`*` any characters, a final `$` the end), an Allow winning a tie.
 */
function robotsAllows(robots: string, path: string): boolean {
  const rules = robots
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .map((line) => /^(allow|disallow):\s*(\S*)$/i.exec(line))
    .filter((match) => match !== null)
    .map(([, kind, pattern]) => ({ allow: kind?.toLowerCase() === 'allow', pattern: pattern ?? '' }))
    .filter((rule) => rule.pattern !== '');
  const matches = (pattern: string) => {
    const anchored = pattern.endsWith('$');
    const body = (anchored ? pattern.slice(0, -1) : pattern)
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    return new RegExp(`^${body}${anchored ? '$' : ''}`).test(path);
  };
  const best = rules
    .filter((rule) => matches(rule.pattern))
    .sort((a, b) => b.pattern.length - a.pattern.length || Number(b.allow) - Number(a.allow))[0];
  return best?.allow ?? true;
}

describe('the built web app, served as a CDN would', () => {
  let web: string;
  let t: TestApp;
  beforeAll(async () => {
    web = mkdtempSync(join(tmpdir(), 'scanline-web-'));
    await writeBuild(web);
    t = await buildTestApp('sqlite', { WEB_DIST: web });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(web, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
    t.app.inject({ method, url, headers });

  it('sends the best compressed copy the browser accepts, and says the answer varies with it', async () => {
    const url = '/assets/index-Ab12_x-Y.js';
    const br = await get(url, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.rawPayload.length).toBeLessThan(SCRIPT.length);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);

    const gz = await get(url, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);

    const plain = await get(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);

    for (const res of [br, gz, plain]) expect(res.headers.vary).toMatch(/accept-encoding/i);
  });

  it('caches content-hashed assets for a year and has the HTML and other files revalidated', async () => {
    expect((await get('/assets/index-Ab12_x-Y.js')).headers['cache-control']).toBe(IMMUTABLE_CACHE);
    expect(IMMUTABLE_CACHE).toBe('public, max-age=31536000, immutable');
    for (const url of ['/', '/buyer', '/robots.txt', '/index.html']) {
      const res = await get(url, { accept: 'text/html', 'accept-encoding': 'br' });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe(REVALIDATE_CACHE);
    }
    expect(cacheControlFor('assets/index-Ab12_x-Y.js.br')).toBe(IMMUTABLE_CACHE);
    expect(cacheControlFor('index.html.gz')).toBe(REVALIDATE_CACHE);
  });

  it('serves each public page prerendered and the console its page, compressed, on every client route', async () => {
    for (const [url, html] of [
      ['/', pageHtml('landing')],
      ['/buyer', pageHtml('buyer')],
      ['/scripts', pageHtml('scripts')],
      ['/script', pageHtml('scripts')],
      ['/BUYER/', pageHtml('buyer')],
      ['/admin', INDEX_HTML],
      ['/admin/', INDEX_HTML],
      ['/admin/login', INDEX_HTML],
      ['/admin/dashboard', INDEX_HTML],
      ['/admin/configuration', INDEX_HTML],
      ['/admin/ai-debugging?tab=reports', INDEX_HTML],
    ] as const) {
      const res = await get(url, { accept: 'text/html', 'accept-encoding': 'br' });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(html);
    }
  });

  it("answers a path outside the client's routes with 404: a not-found page for a browser, JSON otherwise", async () => {
    for (const url of [
      '/no-such-page',
      '/admin/no-such-screen',
      '/buyer/extra',
      '/admin/dashboard/extra',
      '/admin%2Fdashboard',
      '/pricing',
      '/assets/missing-Zz99.js',
      '/prerendered/landing.html',
    ]) {
      // Under /admin the console shows its own not-found screen, inside its shell.
      const html = url.startsWith('/admin/') ? INDEX_HTML : pageHtml('not-found');
      const page = await get(url, {
        accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
        'accept-encoding': 'gzip, br',
      });
      expect(page.statusCode, url).toBe(404);
      expect(page.headers['content-type'], url).toMatch(/^text\/html/);
      expect(page.headers['content-encoding'], url).toBe('br');
      expect(brotliDecompressSync(page.rawPayload).toString(), url).toBe(html);

      for (const accept of ['application/json', '*/*', undefined]) {
        const data = await get(url, accept ? { accept } : {});
        expect(data.statusCode, `${url} ${accept}`).toBe(404);
        expect(data.json(), `${url} ${accept}`).toEqual({ error: `Not found: GET ${url}` });
      }
    }
  });

  it('keeps the 404 page whole when the browser revalidates or asks for a range', async () => {
    const first = await get('/no-such-page', { accept: 'text/html' });
    expect(first.headers.etag).toBeUndefined();
    const res = await get('/no-such-page', {
      accept: 'text/html',
      'if-modified-since': new Date(Date.now() + 60_000).toUTCString(),
      range: 'bytes=0-9',
    });
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe(pageHtml('not-found'));
  });

  it('answers HEAD as GET without a body: pages, assets, robots.txt, the icons, public API reads, 404s', async () => {
    for (const url of [
      '/',
      '/buyer',
      '/scripts',
      '/admin/login',
      '/admin/dashboard',
      '/assets/index-Ab12_x-Y.js',
      '/robots.txt',
      '/favicon.ico',
      '/favicon.svg',
      '/api/public/purchase-info',
      '/api/public/scripts-page-config',
      '/healthz',
      '/no-such-page',
      '/api/nope',
    ]) {
      for (const headers of [{ accept: 'text/html', 'accept-encoding': 'br' }, { accept: '*/*' }]) {
        const get = await t.app.inject({ method: 'GET', url, headers });
        const head = await t.app.inject({ method: 'HEAD', url, headers });
        const what = `${url} ${headers.accept}`;
        expect(get.rawPayload.length, what).toBeGreaterThan(0);
        expect(head.statusCode, what).toBe(get.statusCode);
        expect(headersBesidesDate(head.headers), what).toEqual(headersBesidesDate(get.headers));
        expect(head.rawPayload.length, what).toBe(0);
      }
    }
  });

  it('has a robots.txt that lets crawlers see the public pages and keeps them out of the console and the API', async () => {
    const res = await get('/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['cache-control']).toBe(REVALIDATE_CACHE);
    expect(res.body).toMatch(/^User-agent: \*$/m);
    for (const path of ['/', '/buyer', '/scripts']) expect(robotsAllows(res.body, path), path).toBe(true);
    for (const path of ['/admin', '/admin/login', '/admin/dashboard', '/api/public/purchase-info']) {
      expect(robotsAllows(res.body, path), path).toBe(false);
    }
  });

  it("answers /favicon.ico with the product's icon, an ICO file, and links it from the page", async () => {
    const ico = await get('/favicon.ico', { accept: 'image/avif,image/webp,image/*,*/*;q=0.8' });
    expect(ico.statusCode).toBe(200);
    expect(ico.headers['content-type']).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)$/);
    expect(ico.headers['cache-control']).toBe(REVALIDATE_CACHE);
    // An ICO header (reserved 0, type 1 = icon), then 16, 32 and 48 px images.
    expect([...ico.rawPayload.subarray(0, 4)]).toEqual([0x00, 0x00, 0x01, 0x00]);
    const images = ico.rawPayload.readUInt16LE(4);
    const widths = Array.from({ length: images }, (_, i) => ico.rawPayload.readUInt8(6 + 16 * i));
    expect(widths).toEqual([16, 32, 48]);

    const svg = await get('/favicon.svg');
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    const page = readFileSync(new URL('../../web/index.html', import.meta.url), 'utf8');
    expect(page).toContain('<link rel="icon" href="/favicon.ico"');
    expect(page).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml"');
  });

  it('never serves a source map or a compressed copy by its own name, and keeps API 404s JSON', async () => {
    for (const url of [
      '/assets/index-Ab12_x-Y.js.map',
      '/assets/INDEX-Ab12_x-Y.js.MAP',
      '/assets/missing.js.map',
      '/assets/index-Ab12_x-Y.js.br',
      '/index.html.gz',
      '/api/nope',
      '/api',
    ]) {
      const res = await get(url, { accept: 'text/html', 'accept-encoding': 'br' });
      expect(res.statusCode, url).toBe(404);
      if (url.endsWith('.map') || url.endsWith('.MAP') || url.startsWith('/api')) {
        expect(res.json(), url).toEqual({ error: `Not found: GET ${url}` });
      } else {
        expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      }
    }
    const post = await t.app.inject({ method: 'POST', url: '/buyer', headers: { accept: 'text/html' } });
    expect(post.statusCode).toBe(404);
    expect(post.json()).toEqual({ error: 'Not found: POST /buyer' });
  });
});
