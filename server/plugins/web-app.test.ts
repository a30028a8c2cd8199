import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

/** A built app as Vite writes it (hashed assets, a public file, a source map), compressed by the build step. */
async function writeBuild(dir: string): Promise<void> {
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), INDEX_HTML);
  writeFileSync(join(dir, 'assets', 'index-Ab12_x-Y.js'), SCRIPT);
  writeFileSync(join(dir, 'assets', 'index-Ab12_x-Y.js.map'), '{"version":3,"sources":["web/main.tsx"]}');
  writeFileSync(join(dir, 'robots.txt'), 'User-agent: *\nAllow: /\n');
  mkdirSync(join(dir, 'prerendered'));
  for (const name of ['landing', 'buyer', 'scripts', 'not-found']) {
    writeFileSync(join(dir, 'prerendered', `${name}.html`), pageHtml(name));
  }
  await precompressDirectory(dir);
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
    ]) {
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

  it('answers HEAD as GET without a body, for pages, assets and unknown paths alike', async () => {
    for (const [url, status] of [
      ['/', 200],
      ['/admin/dashboard', 200],
      ['/assets/index-Ab12_x-Y.js', 200],
      ['/no-such-page', 404],
    ] as const) {
      const get = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      const head = await t.app.inject({ method: 'HEAD', url, headers: { accept: 'text/html' } });
      expect(head.statusCode, url).toBe(status);
      expect(head.body, url).toBe('');
      expect(head.headers['content-type'], url).toBe(get.headers['content-type']);
    }
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
