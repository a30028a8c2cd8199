import { describe, expect, it } from 'vitest';
import { DIALECTS, useTestApp } from './test/helper.ts';

/** Routes under /api/admin that must answer without a session. */
const OPEN_ADMIN_ROUTES = new Set(['POST /api/admin/login']);
/** Admin routes whose spec path lies outside /api/admin (guarded by their feature, walked here too). */
const ADMIN_ROUTES_ELSEWHERE = new Set(['GET /api/server-pool/stats']);

for (const dialect of DIALECTS) {
  describe(`${dialect}: the whole API surface`, () => {
    const t = useTestApp(dialect);

    const adminRoutes = () =>
      t.app.routeTable.filter(
        (r) =>
          (r.url.startsWith('/api/admin/') && !OPEN_ADMIN_ROUTES.has(`${r.method} ${r.url}`)) ||
          ADMIN_ROUTES_ELSEWHERE.has(`${r.method} ${r.url}`),
      );

    it('lists the admin routes this test walks', () => {
      const routes = adminRoutes().map((r) => `${r.method} ${r.url}`);
      expect(routes).toEqual(
        expect.arrayContaining([
          'GET /api/admin/dashboard/stats',
          'GET /api/admin/system-configuration',
          'PUT /api/admin/system-configuration',
          'GET /api/admin/system-configuration/slot-usage',
          'GET /api/admin/license-keys',
          'POST /api/admin/license-keys',
          'POST /api/admin/license-keys/:id/revoke',
          'DELETE /api/admin/license-keys/:id',
          'POST /api/admin/error-report',
          'GET /api/admin/scripts',
          'GET /api/admin/scripts/:filename',
          'GET /api/admin/scripts/:filename/versions',
          'POST /api/admin/scripts/save',
          'POST /api/admin/scripts/deploy',
          'DELETE /api/admin/scripts/:filename',
          'PUT /api/admin/scripts/:filename/access-type',
          'GET /api/admin/hosted-scripts/list',
          'GET /api/admin/all-scripts/list',
          'POST /api/admin/scripts/upload',
          'DELETE /api/admin/hosted-scripts/:id',
          'GET /api/admin/scripts-page-config',
          'PUT /api/admin/scripts-page-config',
          'POST /api/admin/scripts-page-config/reset',
          'GET /api/admin/redemption-keys',
          'POST /api/admin/create-redemption-key',
          'DELETE /api/admin/redemption-keys/:id',
          'GET /api/admin/script-keys/list',
          'POST /api/admin/script-keys/create',
          'POST /api/admin/script-keys/toggle-status',
          'DELETE /api/admin/script-keys/delete',
          'GET /api/admin/hardware/bindings',
          'POST /api/admin/license/revoke-binding',
          'GET /api/admin/security/audit-logs',
          'GET /api/admin/security/rate-limits',
          ...ADMIN_ROUTES_ELSEWHERE,
        ]),
      );
    });

    it('refuses every admin route except login without a session cookie', async () => {
      const answered: string[] = [];
      for (const route of adminRoutes()) {
        const url = route.url.replace(/:[A-Za-z_]+/g, '1').replace(/\*$/, 'x');
        const res = await t.app.inject({
          method: route.method as 'GET',
          url,
          ...(['POST', 'PUT', 'PATCH'].includes(route.method) ? { payload: {} } : {}),
        });
        answered.push(`${route.method} ${route.url} -> ${res.statusCode}`);
        expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
        if (route.method !== 'HEAD') {
          expect(res.json(), `${route.method} ${route.url}`).toEqual({ error: 'Authentication required' });
        }
      }
      expect(answered.length).toBeGreaterThan(0);
    });

    it('refuses admin routes with a forged or expired session cookie', async () => {
      const forged = await t.app.inject({
        method: 'GET',
        url: '/api/admin/system-configuration',
        headers: { cookie: 'scanline_session=forged' },
      });
      expect(forged.statusCode).toBe(401);
      const cookie = await t.adminCookie();
      t.clock.advance(24 * 60 * 60 * 1000 + 1);
      const expired = await t.app.inject({
        method: 'GET',
        url: '/api/admin/license-keys',
        headers: { cookie },
      });
      expect(expired.statusCode).toBe(401);
    });

    it('keeps login reachable without a session', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/login',
        payload: { adminSecret: 'x' },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Invalid admin secret' });
    });

    it('sends the security headers on every answer, the loader and errors included', async () => {
      for (const url of ['/api/public/purchase-info', '/api/script/loader?script=nope.lua', '/api/nowhere']) {
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.headers['content-security-policy']).toContain("default-src 'self'");
        // Only the app's own origin: 'self' covers its ws:/wss: socket (CSP3), not every socket anywhere.
        expect(res.headers['content-security-policy']).toMatch(/(^|;)connect-src 'self'(;|$)/);
        expect(res.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
        expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
      }
    });

    it('answers HEAD wherever it answers GET (uptime monitors and link checkers send HEAD)', () => {
      const routes = new Set(t.app.routeTable.map((r) => `${r.method} ${r.url}`));
      const gets = t.app.routeTable.filter((r) => r.method === 'GET').map((r) => r.url);
      expect(gets).toContain('/api/public/purchase-info');
      expect(gets.filter((url) => !routes.has(`HEAD ${url}`))).toEqual([]);
    });

    it('answers unknown API paths with 404 JSON', async () => {
      const cookie = await t.adminCookie();
      for (const [method, url] of [
        ['GET', '/api/nope'],
        ['POST', '/api/public/nope'],
        ['GET', '/api/admin/nope'],
        ['DELETE', '/api/admin/license-keys'],
        ['GET', '/api'],
      ] as const) {
        const res = await t.app.inject({ method, url, headers: { cookie } });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.headers['content-type']).toMatch(/application\/json/);
        expect(res.json()).toEqual({ error: `Not found: ${method} ${url}` });
      }
    });

    it('treats an empty JSON body as no payload, so logout works from any client', async () => {
      const cookie = await t.adminCookie();
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/logout',
        headers: { cookie, 'content-type': 'application/json' },
        payload: '',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true });
    });

    it('answers malformed or poisoned JSON with a 400 {error}, and a missing body where one is needed too', async () => {
      const cookie = await t.adminCookie();
      const send = (payload: string) =>
        t.app.inject({
          method: 'PUT',
          url: '/api/admin/system-configuration',
          headers: { cookie, 'content-type': 'application/json' },
          payload,
        });
      for (const payload of [
        '{"totalSlots": 3,',
        '{"__proto__": {"x": 1}, "totalSlots": 1, "paymentWallets": {}}',
        '',
      ]) {
        const res = await send(payload);
        expect(res.statusCode, payload).toBe(400);
        expect(typeof res.json().error, payload).toBe('string');
      }
      const config = await t.app.inject({
        method: 'GET',
        url: '/api/admin/system-configuration',
        headers: { cookie },
      });
      expect(config.json().configuration.totalSlots).toBe(30);
    });
  });
}
