import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConfigurationDashboard } from '../../../common/configuration.ts';
import { buildTestApp, DIALECTS, type TestApp } from '../../test/helper.ts';
import { botsReport, ghostIds } from '../health/bots-heard.fixtures.ts';

/*
 * The configuration dashboard polls its stats: a poll must not read every bot's configuration, or it
 * costs twenty-eight times as much at 2,000 bots as at 70 (issue 39). What the figures say is in
 * configuration.test.ts; this is what they cost.
 */

const BOTS = 30;
/** A statement reading configuration rows one by one, not counting them. */
const READS_EVERY_CONFIGURATION = /select\s+\*\s+from\s+"bot_configurations"/i;

for (const dialect of DIALECTS) {
  describe(`${dialect}: configuration dashboard stats`, () => {
    let t: TestApp;
    let cookie: string;
    // Every statement while a poll is out (a request through inject keeps no async context of the test's).
    let measured: string[] | undefined;
    beforeEach(async () => {
      t = await buildTestApp(dialect, {}, { onStatement: (sql) => measured?.push(sql) });
      cookie = await t.adminCookie();
    });
    afterEach(async () => {
      await t?.close();
    });

    async function stats(): Promise<{ body: ConfigurationDashboard; sent: string[] }> {
      const sent: string[] = [];
      measured = sent;
      const res = await t.injectBare({
        method: 'GET',
        url: '/api/admin/configurations/dashboard-stats',
        headers: { cookie },
      });
      measured = undefined;
      expect(res.statusCode, res.body).toBe(200);
      return { body: res.json(), sent };
    }

    it('counts every bot the fleet knows without reading each configuration', async () => {
      await botsReport(t, ghostIds(BOTS));
      // The first poll may give the bots their default configurations; the next ones only count.
      await stats();
      const { body, sent } = await stats();
      expect(body.dashboardStats).toMatchObject({ totalConfigurations: BOTS, activeConfigurations: BOTS });
      expect(body.configHealth).toMatchObject({ onlineBots: BOTS, totalBots: BOTS });
      expect(sent.filter((sql) => READS_EVERY_CONFIGURATION.test(sql))).toEqual([]);
    });
  });
}
