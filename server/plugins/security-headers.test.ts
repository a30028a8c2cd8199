import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/helper.ts';

/** A Permissions-Policy header as a map: feature -> its allowlist (`()` none, `(self)` the app's own pages). */
function policyOf(header: unknown): Map<string, string> {
  return new Map(
    String(header ?? '')
      .split(',')
      .map((entry) => entry.trim().split('=') as [string, string]),
  );
}

describe('the Permissions-Policy', () => {
  let web: string;
  let t: TestApp;
  beforeAll(async () => {
    web = mkdtempSync(join(tmpdir(), 'scanline-web-'));
    writeFileSync(join(web, 'index.html'), '<!doctype html><title>Scanline</title><div id="root"></div>');
    mkdirSync(join(web, 'prerendered'));
    for (const page of ['buyer', 'not-found']) {
      writeFileSync(
        join(web, 'prerendered', `${page}.html`),
        `<!doctype html><title>Scanline</title><main>${page}</main>`,
      );
    }
    t = await buildTestApp('sqlite', { WEB_DIST: web });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(web, { recursive: true, force: true });
  });

  it('is on every answer: a page, an API answer, a 404, a 400 and a malformed URL', async () => {
    const answers = {
      page: await t.app.inject({ method: 'GET', url: '/buyer', headers: { accept: 'text/html' } }),
      api: await t.app.inject({ method: 'GET', url: '/api/public/purchase-info' }),
      notFoundPage: await t.app.inject({ method: 'GET', url: '/nowhere', headers: { accept: 'text/html' } }),
      notFound: await t.app.inject({ method: 'GET', url: '/api/nowhere' }),
      invalid: await t.app.inject({ method: 'POST', url: '/api/admin/login', payload: {} }),
      malformedUrl: await t.app.inject({ method: 'GET', url: '/foo/%E0%A4%A' }),
    };
    const statuses = Object.fromEntries(Object.entries(answers).map(([name, res]) => [name, res.statusCode]));
    expect(statuses).toEqual({
      page: 200,
      api: 200,
      notFoundPage: 404,
      notFound: 404,
      invalid: 400,
      malformedUrl: 400,
    });
    const policy = answers.page.headers['permissions-policy'];
    expect(policy).toContain('camera=()');
    for (const [name, res] of Object.entries(answers))
      expect(res.headers['permissions-policy'], name).toBe(policy);
  });

  it('denies what the app never uses and lets its pages copy keys to the clipboard', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    const policy = policyOf(res.headers['permissions-policy']);
    for (const feature of [
      'camera',
      'microphone',
      'geolocation',
      'payment',
      'usb',
      'serial',
      'hid',
      'midi',
      'magnetometer',
      'gyroscope',
      'accelerometer',
      'display-capture',
      'browsing-topics',
      'interest-cohort',
      'fullscreen',
    ]) {
      expect(policy.get(feature), feature).toBe('()');
    }
    expect(policy.get('clipboard-write')).toBe('(self)');
  });

  it('names no feature desktop Chromium does not know (each costs an "Unrecognized feature" warning on every page)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    const policy = policyOf(res.headers['permissions-policy']);
    expect(policy.has('bluetooth')).toBe(false);
    expect(policy.has('web-share')).toBe(false);
  });
});
