import { describe, expect, it } from 'vitest';
import { DIALECTS, useTestApp } from '../../test/helper.ts';

const report = {
  errorId: 'err_1732276800000_abc123',
  error: {
    name: 'TypeError',
    message: "Cannot read properties of undefined (reading 'map')",
    stack: 'at Feed',
  },
  errorInfo: { componentStack: '\n    at LiveEventFeed' },
  level: 'component',
  timestamp: '2026-11-22T12:00:00.000Z',
  userAgent: 'Mozilla/5.0',
  url: 'http://localhost:5000/admin/live-monitoring',
  sessionData: { timestamp: '2026-11-22T11:59:00.000Z', retryCount: 2 },
};

for (const dialect of DIALECTS) {
  describe(`${dialect}: error reports`, () => {
    const t = useTestApp(dialect, { signIn: true });

    const send = (payload: object) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/error-report',
        headers: { cookie: t.cookie },
        payload,
      });

    it('stores a report from an error boundary and answers its id', async () => {
      const res = await send(report);
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body).toEqual({ success: true, id: expect.any(Number) });
      const row = await t.ctx.db
        .selectFrom('error_reports')
        .selectAll()
        .where('id', '=', body.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        error_id: report.errorId,
        level: 'component',
        name: 'TypeError',
        message: report.error.message,
        stack: 'at Feed',
        url: report.url,
        user_agent: 'Mozilla/5.0',
        created_at: t.clock.now(),
      });
      expect(JSON.parse(row.report)).toEqual(report);
    });

    it('stores a minimal report without the optional fields', async () => {
      const { errorInfo: _i, userAgent: _u, url: _l, sessionData: _s, ...minimal } = report;
      const res = await send({ ...minimal, error: { name: 'Error', message: 'boom' } });
      expect(res.statusCode).toBe(201);
      const second = await send(report);
      expect(second.json().id).toBeGreaterThan(res.json().id);
    });

    it('refuses a report without an error id, naming the field', async () => {
      const { errorId: _e, ...rest } = report;
      const res = await send(rest);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain('errorId');
    });

    it('refuses an unknown level', async () => {
      const res = await send({ ...report, level: 'fatal' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain('level');
    });

    it('refuses an oversized message and stores nothing', async () => {
      const res = await send({ ...report, error: { ...report.error, message: 'x'.repeat(5001) } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain('error.message');
      expect(await t.ctx.db.selectFrom('error_reports').selectAll().execute()).toHaveLength(0);
    });

    it('refuses a deeply nested errorInfo with a 400 naming it, and stores nothing', async () => {
      // Written as text: JSON.stringify itself overflows the stack on this.
      const depth = 100_000;
      const nested = `${'{"inner":'.repeat(depth)}"bottom"${'}'.repeat(depth)}`;
      const { errorInfo: _shallow, ...rest } = report;
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/error-report',
        headers: { cookie: t.cookie, 'content-type': 'application/json' },
        payload: `${JSON.stringify(rest).slice(0, -1)},"errorInfo":${nested}}`,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('errorInfo: must nest at most 10 levels deep');
      const deepArray = await send({ ...report, errorInfo: { list: [[[[[[[[[[[1]]]]]]]]]]] } });
      expect(deepArray.statusCode).toBe(400);
      expect(deepArray.json().error).toBe('errorInfo: must nest at most 10 levels deep');
      expect(await t.ctx.db.selectFrom('error_reports').selectAll().execute()).toHaveLength(0);
    });

    it('refuses an errorInfo over 50,000 characters of JSON, and takes one just under', async () => {
      const big = await send({ ...report, errorInfo: { componentStack: 'x'.repeat(50_000) } });
      expect(big.statusCode).toBe(400);
      expect(big.json().error).toBe('errorInfo: must be at most 50000 characters as JSON');
      const wide = await send({
        ...report,
        errorInfo: Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i])),
      });
      expect(wide.statusCode).toBe(400);
      const fits = await send({
        ...report,
        errorInfo: { componentStack: 'x'.repeat(49_000), depth: [[[[1]]]] },
      });
      expect(fits.statusCode).toBe(201);
    });

    it('refuses a body that is not JSON', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/error-report',
        headers: { cookie: t.cookie, 'content-type': 'application/json' },
        payload: 'not json',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(/JSON/);
    });

    it('caps a reporting loop at 60 reports a minute', async () => {
      for (let i = 0; i < 60; i++) expect((await send(report)).statusCode).toBe(201);
      const limited = await send(report);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error).toEqual(expect.any(String));
    });
  });
}
