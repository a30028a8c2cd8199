import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { hopEvent } from '../features/fleet/fleet.fixtures.ts';
import { insertTestScriptKey } from '../test/fixtures.ts';
import { buildTestApp, DIALECTS, TEST_BOT_TOKEN, type TestApp, useTestApp } from '../test/helper.ts';
import { connectTestClient } from '../test/socket-client.ts';
import { BatchWriter, DatabaseUnavailableError, type RowKind, RowSetAsideError } from './batch-writer.ts';

const BOT = { authorization: `Bearer ${TEST_BOT_TOKEN}` };

const postEvents = (t: TestApp, ghostId: string, events: unknown[]) =>
  t.app.inject({ method: 'POST', url: '/api/bot/events', headers: BOT, payload: { ghostId, events } });

const count = async (t: TestApp, table: 'fleet_hops' | 'audit_logs') =>
  Number(
    (
      await t.ctx.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** A pino destination that keeps every line, to read what the server logged. */
function logLines() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: { level: 'warn', stream } };
}

/** Rows of a pretend table whose connection is down for the first `failures` writes. */
function flakyKind(failures: number) {
  const written: number[] = [];
  let attempts = 0;
  const kind: RowKind<number> = {
    table: 'pretend',
    async write(_trx, rows) {
      attempts += 1;
      if (attempts <= failures) throw new Error('Connection terminated unexpectedly');
      written.push(...rows);
    },
  };
  return { kind, written, attempts: () => attempts };
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: the batched writer`, () => {
    const t = useTestApp(dialect);

    it('answers a bot event only once its rows are committed: they are there as soon as the answer is', async () => {
      const res = await postEvents(
        t,
        'ghost-01',
        Array.from({ length: 50 }, (_, i) => hopEvent(i)),
      );
      expect(res.statusCode).toBe(200);
      // No flush: what was acknowledged is already in the database.
      expect(await count(t, 'fleet_hops')).toBe(50);
      const seqs = (res.json() as { results: Array<{ seq: number }> }).results.map((r) => r.seq);
      const stored = await t.ctx.db.selectFrom('fleet_hops').select('seq').orderBy('seq').execute();
      expect(stored.map((r) => r.seq)).toEqual(seqs);
    });

    it('sets a bad row aside alone: every good row of its batch lands', async () => {
      const key = await insertTestScriptKey(t);
      const before = await count(t, 'audit_logs');
      // One batch: a paying user's audit rows and key uses, another bot's hops, and one row the
      // database refuses (no event type), queued in the same turn so they share a transaction.
      for (let i = 0; i < 20; i++)
        t.app.pendingWrites.audit({ eventType: 'binding_attempt', success: true }, 1000 + i);
      for (let i = 0; i < 40; i++) t.app.pendingWrites.keyUse(key.id, key.scriptKey, 999_999, t.clock.now());
      t.app.pendingWrites.audit({ eventType: null as never, success: false }, 2000);
      const hops = postEvents(
        t,
        'ghost-02',
        Array.from({ length: 200 }, (_, i) => hopEvent(i)),
      );
      await t.app.pendingWrites.flush();
      expect((await hops).statusCode).toBe(200);
      expect(await count(t, 'fleet_hops')).toBe(200);
      expect(await count(t, 'audit_logs')).toBe(before + 20);
      const stored = await t.ctx.db
        .selectFrom('script_keys')
        .select('usage_count')
        .where('id', '=', key.id)
        .executeTakeFirstOrThrow();
      expect(stored.usage_count).toBe(40);
      expect(t.app.writer.counts.setAside).toBe(1);
    });

    it('refuses bot events with 429 and Retry-After while the writer is full, and keeps none of them', async () => {
      const small = await buildTestApp(dialect, { WRITER_MAX_PENDING_ROWS: '100' });
      try {
        // The writer is full of rows that wait for a database that is away.
        const stuck = flakyKind(Number.POSITIVE_INFINITY);
        for (let i = 0; i < 100; i++) small.app.writer.add(stuck.kind, i);
        await expect(small.app.writer.flush()).rejects.toBeInstanceOf(DatabaseUnavailableError);
        const res = await postEvents(small, 'ghost-03', [hopEvent(1)]);
        expect(res.statusCode).toBe(429);
        expect(res.headers['retry-after']).toBe('5');
        expect(res.json().error).toMatch(/send them again/);
        expect(await count(small, 'fleet_hops')).toBe(0);
      } finally {
        await small.close();
      }
    });
  });

  describe(`${dialect}: acknowledgements on the bot socket`, () => {
    const t = useTestApp(dialect, { listen: true });

    it('answers a numbered hop with an ack carrying its seq once the hop is stored', async () => {
      const bot = await connectTestClient(`${t.socketUrl}?token=${TEST_BOT_TOKEN}`, undefined, {
        origin: null,
      });
      try {
        bot.send({ type: 'hello', payload: { ghostId: 'ghost-ack', version: '1' }, id: 'h1' });
        await bot.next((f) => f.type === 'hello');
        bot.send({ ...hopEvent(1), id: 'frame-42' });
        const ack = await bot.next((f) => f.type === 'ack');
        const { requestId, seq } = ack.payload as { requestId: string; seq: number };
        expect(requestId).toBe('frame-42');
        const stored = await t.ctx.db.selectFrom('fleet_hops').select('seq').execute();
        expect(stored).toEqual([{ seq }]);
      } finally {
        bot.ws.terminate();
      }
    });
  });

  describe(`${dialect}: the batched writer on its own`, () => {
    const t = useTestApp(dialect);

    it('keeps rows while the database is away, and writes them (answering their writers) when it returns', async () => {
      const { logger, lines } = logLines();
      const pino = (await import('pino')).default(logger, logger.stream);
      const writer = new BatchWriter(t.ctx.db, pino, { maxPendingRows: 1000 });
      const flaky = flakyKind(3);
      const acknowledged = Promise.all([writer.write(flaky.kind, 1), writer.write(flaky.kind, 2)]);
      // A flush while the database is away says so, and loses nothing.
      await expect(writer.flush()).rejects.toBeInstanceOf(DatabaseUnavailableError);
      expect(writer.available).toBe(false);
      await acknowledged;
      expect(flaky.written).toEqual([1, 2]);
      expect(flaky.attempts()).toBe(4);
      expect(writer.available).toBe(true);
      expect(writer.pendingRows).toBe(0);
      // One warning for the outage, not one per retry.
      expect(lines.filter((l) => l.level === 40)).toHaveLength(1);
    });

    it('rejects the writer of a row that can never be written, logging it once with its table', async () => {
      const { logger, lines } = logLines();
      const pino = (await import('pino')).default(logger, logger.stream);
      const writer = new BatchWriter(t.ctx.db, pino, { maxPendingRows: 1000 });
      const landed: string[] = [];
      const kind: RowKind<string> = {
        table: 'pretend',
        async write(_trx, rows) {
          if (rows.includes('bad')) throw new Error('value refused');
          landed.push(...rows);
        },
      };
      const writes = ['a', 'b', 'bad', 'c', 'd'].map((row) => writer.write(kind, row).then(() => row));
      const outcomes = await Promise.allSettled(writes);
      expect(outcomes.map((o) => o.status)).toEqual([
        'fulfilled',
        'fulfilled',
        'rejected',
        'fulfilled',
        'fulfilled',
      ]);
      expect((outcomes[2] as PromiseRejectedResult).reason).toBeInstanceOf(RowSetAsideError);
      expect(landed.sort()).toEqual(['a', 'b', 'c', 'd']);
      const setAside = lines.filter((l) => l.msg === 'a row the database refused was set aside');
      expect(setAside).toEqual([expect.objectContaining({ table: 'pretend', reason: 'value refused' })]);
      expect(writer.counts).toEqual({ written: 4, setAside: 1 });
    });

    it('writes a batch again that PostgreSQL gave up on a deadlock, setting nothing aside', async () => {
      const writer = new BatchWriter(t.ctx.db, (await import('pino')).default({ level: 'silent' }), {
        maxPendingRows: 1000,
      });
      const landed: string[] = [];
      let conflicts = 2;
      const kind: RowKind<string> = {
        table: 'pretend',
        async write(_trx, rows) {
          // Another instance's transaction locked the same rollup rows in the other order.
          if (conflicts-- > 0) throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
          landed.push(...rows);
        },
      };
      await Promise.all(['a', 'b'].map((row) => writer.write(kind, row)));
      expect(landed).toEqual(['a', 'b']);
      expect(writer.counts).toEqual({ written: 2, setAside: 0 });
    });

    it('merges queued rows that share a key', async () => {
      const writer = new BatchWriter(t.ctx.db, (await import('pino')).default({ level: 'silent' }), {
        maxPendingRows: 1000,
      });
      const batches: Array<Array<{ id: string; n: number }>> = [];
      const kind: RowKind<{ id: string; n: number }> = {
        table: 'pretend',
        keyOf: (row) => row.id,
        merge: (a, b) => ({ id: a.id, n: a.n + b.n }),
        async write(_trx, rows) {
          batches.push(rows);
        },
      };
      for (let i = 0; i < 5; i++) writer.add(kind, { id: 'x', n: 1 });
      writer.add(kind, { id: 'y', n: 2 });
      expect(writer.pendingRows).toBe(2);
      await writer.flush();
      expect(batches).toEqual([
        [
          { id: 'x', n: 5 },
          { id: 'y', n: 2 },
        ],
      ]);
    });
  });
}
