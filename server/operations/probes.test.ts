import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, DIALECTS, type TestApp, useTestApp } from '../test/helper.ts';
import { endpointOf, startTcpProxy, type TcpProxy } from '../test/tcp-proxy.ts';

const pgUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

/** Asks /readyz until it answers `status` (the pool and Redis reconnect with a short backoff). */
async function readyzUntil(t: TestApp, status: number, limitMs = 15_000) {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const res = await t.injectBare({ method: 'GET', url: '/readyz' });
    if (res.statusCode === status || Date.now() > deadline) return res;
    await new Promise((r) => setTimeout(r, 100));
  }
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: probes`, () => {
    const t = useTestApp(dialect);

    it('/healthz answers that the process is alive, without a session', async () => {
      const res = await t.injectBare({ method: 'GET', url: '/healthz' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      const body = res.json();
      expect(body).toEqual({ status: 'ok', eventLoopLagMs: expect.any(Number), uptimeS: expect.any(Number) });
      expect(body.eventLoopLagMs).toBeGreaterThanOrEqual(0);
    });

    it('/readyz answers 200 when the database answers and every migration is applied', async () => {
      const res = await t.injectBare({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        status: 'ready',
        failed: [],
        checks: {
          database: { ok: true, durationMs: expect.any(Number) },
          migrations: { ok: true, durationMs: expect.any(Number) },
        },
      });
    });

    it('/readyz answers 503 naming the migrations when one is not applied', async () => {
      const [latest] = await sql<{
        name: string;
      }>`select name from kysely_migration order by name desc limit 1`
        .execute(t.ctx.db)
        .then((r) => r.rows);
      await sql`delete from kysely_migration where name = ${latest?.name}`.execute(t.ctx.db);
      const res = await t.injectBare({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        status: 'unavailable',
        failed: ['migrations'],
        checks: { database: { ok: true }, migrations: { ok: false, error: `not applied: ${latest?.name}` } },
      });
    });

    it('/readyz answers 503 shutting-down once the shutdown has begun; /healthz still 200', async () => {
      t.ctx.services.readiness?.beginShutdown();
      const res = await t.injectBare({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'unavailable', failed: ['shutting-down'] });
      expect((await t.injectBare({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    });

    it('is never rate-limited: 300 probes in a row all answer', async () => {
      const answers = await Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          t.injectBare({ method: 'GET', url: i % 2 ? '/readyz' : '/healthz' }),
        ),
      );
      expect(new Set(answers.map((r) => r.statusCode))).toEqual(new Set([200]));
    });
  });
}

describe('sqlite: the request log at debug (a line per request)', () => {
  it('has no line for a probe, and its lines for other calls', async () => {
    const lines: string[] = [];
    const t = await buildTestApp(
      'sqlite',
      {},
      { app: { logger: { level: 'debug', stream: { write: (line: string) => lines.push(line) } } } },
    );
    try {
      await t.injectBare({ method: 'GET', url: '/healthz' });
      await t.injectBare({ method: 'GET', url: '/readyz' });
      expect(lines.filter((line) => /\/(healthz|readyz)/.test(line))).toEqual([]);
      await t.injectBare({ method: 'GET', url: '/api/public/purchase-info' });
      expect(lines.some((line) => line.includes('/api/public/purchase-info'))).toBe(true);
    } finally {
      await t.close();
    }
  });
});

describe('sqlite: the database handle gone', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('/readyz answers 503 naming the database, and /healthz still 200', async () => {
    t = await buildTestApp('sqlite');
    await t.ctx.db.destroy();
    const res = await t.injectBare({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      status: 'unavailable',
      failed: ['database'],
      checks: { database: { ok: false, error: expect.any(String) } },
    });
    expect((await t.injectBare({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});

describe.runIf(pgUrl)('postgres: the database hanging or gone, then back', () => {
  let t: TestApp | undefined;
  let proxy: TcpProxy | undefined;
  afterEach(async () => {
    proxy?.resume();
    await proxy?.start().catch(() => {});
    await t?.close();
    await proxy?.close();
    t = proxy = undefined;
  });

  async function appBehindProxy(): Promise<TestApp> {
    proxy = await startTcpProxy(endpointOf(pgUrl ?? '', 5432));
    return buildTestApp('postgres', {}, { databaseUrl: proxy.urlFor(pgUrl ?? '') });
  }

  it('answers 503 naming the database while it hangs, and 200 once it answers again', async () => {
    t = await appBehindProxy();
    expect((await t.injectBare({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    proxy?.pause();
    // Two probes at once share one check: both answer, neither waits for the database.
    const [first, second] = await Promise.all([
      t.injectBare({ method: 'GET', url: '/readyz' }),
      t.injectBare({ method: 'GET', url: '/readyz' }),
    ]);
    for (const res of [first, second]) {
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        status: 'unavailable',
        failed: ['database'],
        checks: { database: { ok: false, error: 'timed out after 1500 ms' } },
      });
    }
    proxy?.resume();
    const back = await readyzUntil(t, 200);
    expect(back.json()).toMatchObject({ status: 'ready', failed: [] });
  });

  it('answers 503 naming the database while it is stopped, and 200 once it is back', async () => {
    t = await appBehindProxy();
    await proxy?.stop();
    const down = await readyzUntil(t, 503);
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ failed: ['database'], checks: { database: { ok: false } } });
    await proxy?.start();
    expect((await readyzUntil(t, 200)).statusCode).toBe(200);
  });
});

describe.runIf(redisUrl)('sqlite with Redis: Redis not answering PING', () => {
  let t: TestApp | undefined;
  let proxy: TcpProxy | undefined;
  afterEach(async () => {
    proxy?.resume();
    await t?.close();
    await proxy?.close();
    t = proxy = undefined;
  });

  it('answers 503 naming redis while it hangs, and 200 once it answers again', async () => {
    proxy = await startTcpProxy(endpointOf(redisUrl ?? '', 6379));
    t = await buildTestApp('sqlite', { REDIS_URL: proxy.urlFor(redisUrl ?? '') });
    const ready = await readyzUntil(t, 200);
    expect(ready.json().checks.redis).toMatchObject({ ok: true });
    proxy.pause();
    const res = await t.injectBare({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      status: 'unavailable',
      failed: ['redis'],
      // Cut off by the bus's own command timeout (1 s) or the probe's (1.5 s), whichever comes first.
      checks: { database: { ok: true }, redis: { ok: false, error: expect.stringMatching(/timed out/i) } },
    });
    proxy.resume();
    expect((await readyzUntil(t, 200)).statusCode).toBe(200);
  });
});
