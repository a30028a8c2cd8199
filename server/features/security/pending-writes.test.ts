import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { insertTestScriptKey } from '../../test/fixtures.ts';
import { DIALECTS, useTestApp } from '../../test/helper.ts';

for (const dialect of DIALECTS) {
  describe(`${dialect}: pending writes`, () => {
    const t = useTestApp(dialect);

    const keyRow = (id: number) =>
      t.ctx.db.selectFrom('script_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    it('writes queued key uses of several keys and devices together, once flushed', async () => {
      const a = await insertTestScriptKey(t);
      const b = await insertTestScriptKey(t);
      const binding = await t.ctx.db
        .insertInto('hardware_bindings')
        .values({
          license_key_id: null,
          script_key_id: a.id,
          hardware_id: 'device-1',
          status: 'ACTIVE',
          device_info: null,
          first_bind_date: t.clock.now(),
          last_used_date: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const now = t.clock.now();
      for (let i = 0; i < 5; i++) t.app.pendingWrites.keyUse(a.id, a.scriptKey, binding.id, now + i);
      t.app.pendingWrites.keyUse(b.id, b.scriptKey, 999_999, now);
      expect((await keyRow(a.id)).usage_count).toBe(0);

      await t.app.pendingWrites.flush();
      expect(await keyRow(a.id)).toMatchObject({ usage_count: 5, last_used: now + 4 });
      expect(await keyRow(b.id)).toMatchObject({ usage_count: 1, last_used: now });
      const device = await t.ctx.db
        .selectFrom('hardware_bindings')
        .select('last_used_date')
        .where('id', '=', binding.id)
        .executeTakeFirstOrThrow();
      expect(device.last_used_date).toBe(now + 4);
      const daily = await t.ctx.db
        .selectFrom('usage_daily')
        .select(['key', 'uses'])
        .orderBy('uses')
        .execute();
      expect(daily).toEqual([
        { key: b.scriptKey, uses: 1 },
        { key: a.scriptKey, uses: 5 },
      ]);
    });

    it('keeps a batch the database refused and writes it with the next flush', async () => {
      const auditCount = async () =>
        Number(
          (
            await t.ctx.db
              .selectFrom('audit_logs')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await auditCount();
      // The table is away for a moment (a database restart, say): the flush fails and loses nothing.
      await sql`alter table audit_logs rename to audit_logs_away`.execute(t.ctx.db);
      t.app.pendingWrites.audit({ eventType: 'binding_attempt', success: true }, t.clock.now());
      await expect(t.app.pendingWrites.flush()).rejects.toThrow();
      await sql`alter table audit_logs_away rename to audit_logs`.execute(t.ctx.db);
      t.app.pendingWrites.audit({ eventType: 'rate_limit_hit', success: false }, t.clock.now());
      await t.app.pendingWrites.flush();
      expect(await auditCount()).toBe(before + 2);
    });

    it('writes a window of refusals as one row even when its first write failed and was retried', async () => {
      const hit = (ip: string) =>
        t.app.pendingWrites.rateLimitHit(
          `loader:ip:${ip}`,
          { eventType: 'rate_limit_hit', success: false, ipAddress: ip, details: { limitType: 'loader' } },
          t.clock.now() + 60_000,
          t.clock.now(),
        );
      const hitRows = () =>
        t.ctx.db
          .selectFrom('audit_logs')
          .select(['ip_address', 'details'])
          .where('event_type', '=', 'rate_limit_hit')
          .orderBy('id')
          .execute();
      for (let i = 0; i < 3; i++) hit('10.0.0.1');
      await sql`alter table audit_logs rename to audit_logs_away`.execute(t.ctx.db);
      await expect(t.app.pendingWrites.flush()).rejects.toThrow();
      await sql`alter table audit_logs_away rename to audit_logs`.execute(t.ctx.db);
      hit('10.0.0.1');
      hit('10.0.0.2');
      // The failed batch goes first (inserting the row), then the new one (updating it).
      await t.app.pendingWrites.flush();
      hit('10.0.0.1');
      await t.app.pendingWrites.flush();
      expect(await hitRows()).toEqual([
        { ip_address: '10.0.0.1', details: JSON.stringify({ limitType: 'loader', count: 5 }) },
        { ip_address: '10.0.0.2', details: JSON.stringify({ limitType: 'loader', count: 1 }) },
      ]);
    });

    it('gives up a batch that can never be written, and later batches still land', async () => {
      const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
      t.app.pendingWrites.audit({ eventType: null as unknown as string, success: false }, t.clock.now());
      for (let attempt = 0; attempt < 5; attempt++)
        await expect(t.app.pendingWrites.flush()).rejects.toThrow();
      t.app.pendingWrites.audit({ eventType: 'binding_attempt', success: true }, t.clock.now());
      await t.app.pendingWrites.flush();
      const rows = await t.ctx.db
        .selectFrom('audit_logs')
        .select('event_type')
        .where('event_type', '=', 'binding_attempt')
        .execute();
      expect(rows).toEqual([{ event_type: 'binding_attempt' }]);
      expect(logged).toHaveBeenCalledWith('pending writes given up after 5 attempts', expect.any(Error));
      logged.mockRestore();
    });
  });
}
