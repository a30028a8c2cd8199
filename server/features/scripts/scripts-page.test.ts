import { describe, expect, it } from 'vitest';
import { DEFAULT_SCRIPTS_PAGE_CONFIG } from '../../../common/public-defaults.ts';
import type { ScriptsPageConfig } from '../../../common/scripts-page.ts';
import { DIALECTS, useTestApp } from '../../test/helper.ts';
import { getScriptsPageConfig, seedScriptsPageConfig } from './scripts-page.service.ts';

for (const dialect of DIALECTS) {
  describe(`${dialect}: scripts page config`, () => {
    const t = useTestApp(dialect, { signIn: true });

    const adminGet = () =>
      t.app.inject({ method: 'GET', url: '/api/admin/scripts-page-config', headers: { cookie: t.cookie } });
    const publicGet = () => t.app.inject({ method: 'GET', url: '/api/public/scripts-page-config' });
    const put = (payload: unknown) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/admin/scripts-page-config',
        headers: { cookie: t.cookie },
        payload: payload as object,
      });
    const reset = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/scripts-page-config/reset',
        headers: { cookie: t.cookie },
      });

    const edited: ScriptsPageConfig = {
      ...DEFAULT_SCRIPTS_PAGE_CONFIG,
      headerTitle: 'Our Scripts',
      showBackButton: 0,
      sections: [{ ...DEFAULT_SCRIPTS_PAGE_CONFIG.sections[0]!, title: 'Free Forever', visible: false }],
    };

    it('seeds the default page once, under the key default', async () => {
      const rows = await t.ctx.db.selectFrom('scripts_page_config').selectAll().execute();
      expect(rows.map((r) => r.key)).toEqual(['default']);
      expect(await getScriptsPageConfig(t.ctx)).toEqual(DEFAULT_SCRIPTS_PAGE_CONFIG);
      expect((await adminGet()).json()).toEqual({ config: DEFAULT_SCRIPTS_PAGE_CONFIG });
    });

    it('answers exactly the fields the editor reads (the response schema strips the rest)', async () => {
      const { config } = (await adminGet()).json();
      expect(Object.keys(config).sort()).toEqual([
        'headerSubtitle',
        'headerTitle',
        'key',
        'sections',
        'securityBadge',
        'showBackButton',
      ]);
      expect(Object.keys(config.sections[0]).sort()).toEqual(
        Object.keys(DEFAULT_SCRIPTS_PAGE_CONFIG.sections[0]!).sort(),
      );
    });

    it('keeps what the admin saved when the defaults are seeded again on the next start', async () => {
      expect((await put({ ...DEFAULT_SCRIPTS_PAGE_CONFIG, securityBadge: 'Audited' })).statusCode).toBe(200);
      await seedScriptsPageConfig(t.ctx);
      await Promise.all([seedScriptsPageConfig(t.ctx), seedScriptsPageConfig(t.ctx)]);
      expect((await getScriptsPageConfig(t.ctx)).securityBadge).toBe('Audited');
      expect(await t.ctx.db.selectFrom('scripts_page_config').selectAll().execute()).toHaveLength(1);
    });

    it('falls back to the default page when nothing is stored', async () => {
      await t.ctx.db.deleteFrom('scripts_page_config').execute();
      expect(await getScriptsPageConfig(t.ctx)).toEqual(DEFAULT_SCRIPTS_PAGE_CONFIG);
      expect((await publicGet()).json()).toEqual({ config: DEFAULT_SCRIPTS_PAGE_CONFIG });
    });

    it('saves the whole page and the public page shows it at once', async () => {
      expect((await publicGet()).json().config.headerTitle).toBe(DEFAULT_SCRIPTS_PAGE_CONFIG.headerTitle);
      const res = await put(edited);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ config: edited });
      expect((await publicGet()).json()).toEqual({ config: edited });
      expect((await adminGet()).json()).toEqual({ config: edited });
      const [audit] = await t.ctx.db
        .selectFrom('audit_logs')
        .selectAll()
        .where('event_type', '=', 'scripts_page_config_saved')
        .execute();
      expect(audit?.success).toBe(1);
    });

    it('fills in the default key and the defaults of optional fields', async () => {
      const { key: _key, ...withoutKey } = edited;
      const section = { ...edited.sections[0] } as Partial<(typeof edited.sections)[0]>;
      delete section.order;
      delete section.visible;
      const res = await put({ ...withoutKey, sections: [section] });
      expect(res.statusCode).toBe(200);
      expect(res.json().config).toMatchObject({ key: 'default', sections: [{ order: 0, visible: true }] });
    });

    it('resets the page to the default', async () => {
      await put(edited);
      const res = await reset();
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ config: DEFAULT_SCRIPTS_PAGE_CONFIG });
      expect((await publicGet()).json()).toEqual({ config: DEFAULT_SCRIPTS_PAGE_CONFIG });
    });

    it('refuses a config that does not fit the page with a 400 naming the field, and keeps the stored one', async () => {
      await put(edited);
      const cases: [unknown, RegExp][] = [
        [{ ...edited, showBackButton: true }, /^showBackButton: /],
        [{ ...edited, headerTitle: 'x'.repeat(201) }, /^headerTitle: /],
        [{ ...edited, sections: [{ ...edited.sections[0], icon: 'skull' }] }, /^sections\.0\.icon: /],
        [
          { ...edited, sections: [{ ...edited.sections[0], buttons: [{ id: 'b', label: 'B' }] }] },
          /^sections\.0\.buttons\.0\./,
        ],
        [{ headerTitle: 'only this' }, /: /],
        [[], /./],
      ];
      for (const [payload, error] of cases) {
        const res = await put(payload);
        expect(res.statusCode, JSON.stringify(payload).slice(0, 60)).toBe(400);
        expect(res.json().error).toMatch(error);
      }
      expect((await publicGet()).json()).toEqual({ config: edited });
    });

    it('refuses the editor calls without an admin session', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/api/admin/scripts-page-config' })).statusCode).toBe(
        401,
      );
      expect(
        (await t.app.inject({ method: 'PUT', url: '/api/admin/scripts-page-config', payload: edited }))
          .statusCode,
      ).toBe(401);
      expect(
        (await t.app.inject({ method: 'POST', url: '/api/admin/scripts-page-config/reset' })).statusCode,
      ).toBe(401);
      expect((await publicGet()).json()).toEqual({ config: DEFAULT_SCRIPTS_PAGE_CONFIG });
    });
  });
}
