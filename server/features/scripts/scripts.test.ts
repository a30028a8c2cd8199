import { describe, expect, it } from 'vitest';
import { DEFAULT_SCRIPTS_PAGE_CONFIG } from '../../../common/scripts-page.ts';
import { DIALECTS, useTestApp } from '../../test/helper.ts';
import { getScriptsPageConfig, seedScriptsPageConfig } from './scripts.service.ts';

for (const dialect of DIALECTS) {
  describe(`${dialect}: scripts page config`, () => {
    const t = useTestApp(dialect);

    it('seeds the default page once, under the key default', async () => {
      const rows = await t.ctx.db.selectFrom('scripts_page_config').selectAll().execute();
      expect(rows.map((r) => r.key)).toEqual(['default']);
      expect(await getScriptsPageConfig(t.ctx)).toEqual(DEFAULT_SCRIPTS_PAGE_CONFIG);
    });

    it('keeps what the admin saved when the defaults are seeded again on the next start', async () => {
      const { key: _key, ...content } = DEFAULT_SCRIPTS_PAGE_CONFIG;
      await t.ctx.db
        .updateTable('scripts_page_config')
        .set({ config: JSON.stringify({ ...content, securityBadge: 'Audited' }) })
        .execute();
      await seedScriptsPageConfig(t.ctx);
      await Promise.all([seedScriptsPageConfig(t.ctx), seedScriptsPageConfig(t.ctx)]);
      expect((await getScriptsPageConfig(t.ctx)).securityBadge).toBe('Audited');
      expect(await t.ctx.db.selectFrom('scripts_page_config').selectAll().execute()).toHaveLength(1);
    });

    it('falls back to the default page when nothing is stored', async () => {
      await t.ctx.db.deleteFrom('scripts_page_config').execute();
      expect(await getScriptsPageConfig(t.ctx)).toEqual(DEFAULT_SCRIPTS_PAGE_CONFIG);
    });
  });
}
