import { describe, expect, it } from 'vitest';
import { buildTestApp, DIALECTS, TEST_ADMIN_SECRET, useTestApp } from '../../test/helper.ts';

for (const dialect of DIALECTS) {
  describe(`${dialect}: admin login`, () => {
    const t = useTestApp(dialect);

    const login = (adminSecret: unknown, ip = '10.0.0.1') =>
      t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { adminSecret }, remoteAddress: ip });

    it('opens a 24 h HttpOnly SameSite=Strict session for the right secret', async () => {
      const res = await login(TEST_ADMIN_SECRET);
      expect(res.statusCode).toBe(200);
      const cookie = res.cookies.find((c) => c.name === 'scanline_session');
      expect(cookie?.httpOnly).toBe(true);
      expect(cookie?.sameSite).toBe('Strict');
      expect(cookie?.maxAge).toBe(24 * 60 * 60);
    });

    it('refuses a wrong secret with the spec text and audits the failure', async () => {
      const res = await login('nope');
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Invalid admin secret' });
      const rows = await t.ctx.db
        .selectFrom('audit_logs')
        .selectAll()
        .where('event_type', '=', 'admin_login')
        .execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]?.success).toBe(0);
      expect(rows[0]?.ip_address).toBe('10.0.0.1');
    });

    it('refuses an empty secret with 400', async () => {
      const res = await login('   ');
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain('Admin secret is required');
    });

    it('answers 429 after 5 failures from one IP within 15 minutes, even for the right secret', async () => {
      for (let i = 0; i < 5; i++) expect((await login('wrong')).statusCode).toBe(401);
      const blocked = await login(TEST_ADMIN_SECRET);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().error).toMatch(/Too many failed login attempts/);
      expect((await login(TEST_ADMIN_SECRET, '10.0.0.2')).statusCode).toBe(200);
      t.clock.advance(15 * 60 * 1000 + 1);
      expect((await login(TEST_ADMIN_SECRET)).statusCode).toBe(200);
    });

    it('does not let a forged X-Forwarded-For dodge the failed-login limit', async () => {
      for (let i = 0; i < 6; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/admin/login',
          payload: { adminSecret: 'wrong' },
          remoteAddress: '10.0.0.9',
          headers: { 'x-forwarded-for': `203.0.113.${i}` },
        });
        expect(res.statusCode).toBe(i < 5 ? 401 : 429);
      }
    });

    it('counts failures per forwarded client when the request comes from the configured proxy', async () => {
      const behindProxy = await buildTestApp(dialect, { TRUST_PROXY: '10.0.0.5' });
      const attempt = (client: string) =>
        behindProxy.app.inject({
          method: 'POST',
          url: '/api/admin/login',
          payload: { adminSecret: 'wrong' },
          remoteAddress: '10.0.0.5',
          headers: { 'x-forwarded-for': client },
        });
      try {
        for (let i = 0; i < 5; i++) expect((await attempt('198.51.100.1')).statusCode).toBe(401);
        expect((await attempt('198.51.100.1')).statusCode).toBe(429);
        expect((await attempt('198.51.100.2')).statusCode).toBe(401);
      } finally {
        await behindProxy.close();
      }
    });

    it('ends the session on logout', async () => {
      const cookie = await t.adminCookie();
      const res = await t.app.inject({ method: 'POST', url: '/api/admin/logout', headers: { cookie } });
      expect(res.statusCode).toBe(200);
      const after = await t.app.inject({
        method: 'GET',
        url: '/api/admin/dashboard/stats',
        headers: { cookie },
      });
      expect(after.statusCode).toBe(401);
    });

    it('expires a session after 24 hours', async () => {
      const cookie = await t.adminCookie();
      t.clock.advance(24 * 60 * 60 * 1000 + 1);
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/admin/dashboard/stats',
        headers: { cookie },
      });
      expect(res.statusCode).toBe(401);
    });
  });
}
