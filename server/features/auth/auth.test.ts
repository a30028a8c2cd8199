import { setTimeout } from 'node:timers/promises';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, DIALECTS, TEST_ADMIN_SECRET, useTestApp } from '../../test/helper.ts';
import { insertAdminSecretHash } from './auth.store.ts';
import { hashSecret } from './secret.ts';

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
      await t.app.pendingWrites.flush();
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

for (const dialect of DIALECTS) {
  describe(`${dialect}: login cost and lockout`, () => {
    const t = useTestApp(dialect);

    const login = (adminSecret: string, ip: string) =>
      t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { adminSecret }, remoteAddress: ip });

    it('counts the failed-login lockout per /64 for IPv6, as the rate limits do', async () => {
      for (let host = 1; host <= 5; host++) {
        expect((await login('wrong', `2001:db8:0:7::${host}`)).statusCode).toBe(401);
      }
      const sameBlock = await login(TEST_ADMIN_SECRET, '2001:db8:0:7::99');
      expect(sameBlock.statusCode).toBe(429);
      expect(sameBlock.json()).toEqual({ error: 'Too many failed login attempts. Try again in 15 minutes.' });
      expect((await login(TEST_ADMIN_SECRET, '2001:db8:0:8::1')).statusCode).toBe(200);
    });

    describe('with only the generated secret’s scrypt hash stored (no check value yet)', () => {
      const STORED_SECRET = 'the-generated-secret';
      // As many as are checked without a refusal: the running ones and the waiting ones.
      const checkable = () => t.ctx.config.LOGIN_HASH_CONCURRENCY + t.ctx.config.LOGIN_QUEUE_SIZE;

      beforeEach(async () => {
        // A secret generated before check values existed: every check hashes the candidate with scrypt.
        t.ctx.config.ADMIN_SECRET = undefined;
        await insertAdminSecretHash(t.ctx.db, await hashSecret(STORED_SECRET), t.clock.now());
      });

      it('keeps answering public pages while wrong logins are being checked', async () => {
        // Nine rounds of two hashes on the thread pool.
        const attempts = checkable();
        const finished: string[] = [];
        const logins = Array.from({ length: attempts }, (_, i) =>
          login('wrong', `10.1.0.${i}`).then((res) => {
            finished.push(`login ${res.statusCode}`);
            return res;
          }),
        );
        const openPage = () =>
          t.app.inject({ method: 'GET', url: '/api/public/purchase-info' }).then((res) => {
            finished.push(`page ${res.statusCode}`);
          });
        // One page asked as soon as the event loop is free after the logins started (a timer waits
        // for a free loop), one once the first login has its answer and the rest are being hashed.
        const pages = [setTimeout(10).then(openPage), Promise.race(logins).then(openPage)];
        await Promise.all([...pages, ...logins]);
        expect(finished.filter((entry) => entry.startsWith('login'))).toEqual(
          Array(attempts).fill('login 401'),
        );
        // Neither page waits for the logins: most are still being checked when it has its answer.
        // Hashing on the event loop made one of them wait for nearly all.
        const pagesAt = finished.flatMap((entry, i) => (entry === 'page 200' ? [i] : []));
        expect(pagesAt).toHaveLength(2);
        for (const at of pagesAt) expect(at, finished.join(', ')).toBeLessThan(attempts / 2);
        expect((await login(STORED_SECRET, '10.1.0.99')).statusCode).toBe(200);
      });

      it('refuses logins beyond those it can check soon with a quick 429 counted as a failure, the others still checked', async () => {
        const extra = 3;
        const attempts = checkable() + extra;
        const finished: number[] = [];
        await Promise.all(
          Array.from({ length: attempts }, (_, i) =>
            login('wrong', `10.2.${Math.floor(i / 200)}.${i % 200}`).then((res) => {
              finished.push(res.statusCode);
              if (res.statusCode === 429) {
                expect(res.json()).toEqual({
                  error: 'Too many sign-ins are being checked: try again in a moment',
                });
              }
            }),
          ),
        );
        expect(finished).toEqual([...Array(extra).fill(429), ...Array(attempts - extra).fill(401)]);
        // The refused ones count against their addresses too: a refusal frees no attacker.
        await t.app.pendingWrites.flush();
        const failures = await t.ctx.db
          .selectFrom('audit_logs')
          .select('ip_address')
          .where('event_type', '=', 'admin_login')
          .where('success', '=', 0)
          .execute();
        expect(failures).toHaveLength(attempts);
      });
    });
  });
}
