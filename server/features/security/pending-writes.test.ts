import { describe, expect, it } from 'vitest';
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

    it('writes a window of refusals as one row even when its first write was rolled back and retried', async () => {
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
      // A row the database refuses shares the window's first transaction, which rolls back; the
      // window is written again on its own and must not be inserted twice afterwards.
      t.app.pendingWrites.audit({ eventType: null as never, success: false }, t.clock.now());
      await t.app.pendingWrites.flush();
      hit('10.0.0.1');
      hit('10.0.0.2');
      await t.app.pendingWrites.flush();
      hit('10.0.0.1');
      await t.app.pendingWrites.flush();
      expect(await hitRows()).toEqual([
        { ip_address: '10.0.0.1', details: JSON.stringify({ limitType: 'loader', count: 5 }) },
        { ip_address: '10.0.0.2', details: JSON.stringify({ limitType: 'loader', count: 1 }) },
      ]);
    });

    it('sets aside a row that can never be written; the rows queued with it and after it land', async () => {
      t.app.pendingWrites.audit({ eventType: 'binding_attempt', success: true }, t.clock.now());
      t.app.pendingWrites.audit({ eventType: null as never, success: false }, t.clock.now());
      t.app.pendingWrites.audit({ eventType: 'binding_attempt', success: true }, t.clock.now());
      await t.app.pendingWrites.flush();
      t.app.pendingWrites.audit({ eventType: 'binding_attempt', success: true }, t.clock.now());
      await t.app.pendingWrites.flush();
      const rows = await t.ctx.db
        .selectFrom('audit_logs')
        .select('event_type')
        .where('event_type', '=', 'binding_attempt')
        .execute();
      expect(rows).toHaveLength(3);
      expect(t.app.writer.counts.setAside).toBe(1);
    });
  });
}
