import { describe, expect, it } from 'vitest';
import { DIALECTS, useTestApp } from '../../test/helper.ts';
import { insertTestScriptKey } from '../script-access/script-access.fixtures.ts';

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

    it('fails only the batch that could not be written; later flushes still write theirs', async () => {
      t.app.pendingWrites.audit({ eventType: null as unknown as string, success: false }, t.clock.now());
      await expect(t.app.pendingWrites.flush()).rejects.toThrow();
      t.app.pendingWrites.audit({ eventType: 'binding_attempt', success: true }, t.clock.now());
      await t.app.pendingWrites.flush();
      const rows = await t.ctx.db.selectFrom('audit_logs').select('event_type').execute();
      expect(rows).toEqual([{ event_type: 'binding_attempt' }]);
    });
  });
}
