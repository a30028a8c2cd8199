import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REDEMPTION_TEXTS } from '../../../common/redemption.ts';
import { buildTestApp, DIALECTS, type TestApp, useTestApp } from '../../test/helper.ts';
import { ACCESS_TEXTS } from './loader-access.ts';
import {
  auditRows,
  callLoader,
  insertRedemptionCode,
  insertTestScriptKey,
  loaderStatus,
  savePremiumScript,
  scriptKeyBindings,
  scriptOf,
} from './script-access.fixtures.ts';

const SCRIPT = 'premium.lua';
const CONTENT = 'return "premium"\n';
const RACERS = 50;
/** The races are about transactions, not rate limits: lift those far above the racers. */
const LIMITS_OFF = { RATE_LIMIT_REDEEM: '10000', RATE_LIMIT_LOADER: '10000' };

/** Who answered what, e.g. { '200': 1, '409': 49 }. */
function countStatuses(
  responses: { statusCode: number; headers: Record<string, unknown> }[],
): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of responses) counts[loaderStatus(r)] = (counts[loaderStatus(r)] ?? 0) + 1;
  return counts;
}

/**
 * `apps` share one database; racer i goes to apps[i % apps.length]. Checks one winner, one key,
 * one binding, and that every loser got a 409 saying why (the losers of the conditional update audit
 * a transaction_conflict each).
 */
async function raceRedemptions(apps: [TestApp, ...TestApp[]]) {
  const [t] = apps;
  const { id, code } = await insertRedemptionCode(t, { maxHardwareBindings: 2 });
  const responses = await Promise.all(
    Array.from({ length: RACERS }, (_, i) =>
      apps[i % apps.length]!.app.inject({
        method: 'POST',
        url: '/api/script/redeem',
        payload: { code, hwid: `device-${i}` },
      }),
    ),
  );
  expect(countStatuses(responses)).toEqual({ 200: 1, 409: RACERS - 1 });
  const losers = responses.filter((r) => r.statusCode === 409).map((r) => r.json().error as string);
  for (const error of losers)
    expect([REDEMPTION_TEXTS.alreadyRedeemed, REDEMPTION_TEXTS.conflict]).toContain(error);

  const keys = await t.ctx.db.selectFrom('script_keys').selectAll().execute();
  expect(keys).toHaveLength(1);
  expect(keys[0]?.redemption_key_id).toBe(id);
  expect(await scriptKeyBindings(t, keys[0]!.id)).toHaveLength(1);
  const conflicts = await auditRows(t, 'transaction_conflict');
  expect(conflicts).toHaveLength(losers.filter((e) => e === REDEMPTION_TEXTS.conflict).length);
  for (const row of conflicts)
    expect(row.details).toMatchObject({ operation: 'code_redeem', redemptionKeyId: id });
}

/** 50 different devices load with one 3-device key at once: exactly 3 are bound and served. */
async function raceBindings(apps: [TestApp, ...TestApp[]], cookie: string) {
  const [t] = apps;
  await savePremiumScript(t, cookie, SCRIPT, CONTENT);
  const key = await insertTestScriptKey(t, { maxHardwareBindings: 3 });
  const responses = await Promise.all(
    Array.from({ length: RACERS }, (_, i) =>
      callLoader(apps[i % apps.length]!, { script: SCRIPT, key: key.scriptKey, hwid: `device-${i}` }),
    ),
  );
  expect(countStatuses(responses)).toEqual({ 200: 3, 403: RACERS - 3 });
  for (const r of responses) {
    if (loaderStatus(r) === 200) expect(scriptOf(r)).toBe(CONTENT);
    else expect(r.body).toContain('This key is already bound to 3 devices: the device limit is reached');
  }
  const bindings = await scriptKeyBindings(t, key.id);
  expect(bindings.map((b) => b.status)).toEqual(['ACTIVE', 'ACTIVE', 'ACTIVE']);
  const served = responses.flatMap((r, i) => (loaderStatus(r) === 200 ? [`device-${i}`] : []));
  expect(bindings.map((b) => b.hardware_id).sort()).toEqual(served.sort());

  for (const instance of apps) await instance.app.pendingWrites.flush();
  const attempts = await auditRows(t, 'binding_attempt');
  expect(attempts.filter((a) => a.success === 1)).toHaveLength(3);
  expect(attempts.filter((a) => a.success === 0)).toHaveLength(RACERS - 3);
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: races`, () => {
    const t = useTestApp(dialect, { signIn: true, env: LIMITS_OFF });

    it(`lets exactly one of ${RACERS} simultaneous redemptions of a code make a script key`, async () => {
      await raceRedemptions([t]);
    });

    it(`binds exactly 3 of ${RACERS} devices racing for a 3-device key`, async () => {
      await raceBindings([t], t.cookie);
    });

    it('binds a device once however many of its calls arrive together', async () => {
      await savePremiumScript(t, t.cookie, SCRIPT, CONTENT);
      const key = await insertTestScriptKey(t);
      const responses = await Promise.all(
        Array.from({ length: 20 }, () =>
          callLoader(t, { script: SCRIPT, key: key.scriptKey, hwid: 'device-1' }),
        ),
      );
      expect(countStatuses(responses)).toEqual({ 200: 20 });
      expect(await scriptKeyBindings(t, key.id)).toHaveLength(1);
      await t.app.pendingWrites.flush();
      const row = await t.ctx.db
        .selectFrom('script_keys')
        .select('usage_count')
        .where('id', '=', key.id)
        .executeTakeFirstOrThrow();
      expect(row.usage_count).toBe(20);
    });

    it('refuses a revoked device even when it races a new device for the last place', async () => {
      await savePremiumScript(t, t.cookie, SCRIPT, CONTENT);
      const key = await insertTestScriptKey(t, { maxHardwareBindings: 1 });
      expect((await callLoader(t, { script: SCRIPT, key: key.scriptKey, hwid: 'device-1' })).statusCode).toBe(
        200,
      );
      const [binding] = await scriptKeyBindings(t, key.id);
      const revoked = await t.app.inject({
        method: 'POST',
        url: '/api/admin/license/revoke-binding',
        headers: { cookie: t.cookie },
        payload: { bindingId: binding!.id },
      });
      expect(revoked.statusCode, revoked.body).toBe(200);
      const [old, ...fresh] = await Promise.all([
        callLoader(t, { script: SCRIPT, key: key.scriptKey, hwid: 'device-1' }),
        ...Array.from({ length: 10 }, (_, i) =>
          callLoader(t, { script: SCRIPT, key: key.scriptKey, hwid: `new-${i}` }),
        ),
      ]);
      expect(loaderStatus(old)).toBe(403);
      expect(old.body).toContain(ACCESS_TEXTS.revokedDevice);
      expect(countStatuses(fresh)).toEqual({ 200: 1, 403: 9 });
    });
  });
}

if (DIALECTS.includes('postgres')) {
  describe('postgres: races spread over two instances on one database', () => {
    let first: TestApp;
    let second: TestApp;
    beforeEach(async () => {
      first = await buildTestApp('postgres', LIMITS_OFF);
      second = await buildTestApp('postgres', LIMITS_OFF, { joinSchemaOf: first });
    });
    afterEach(async () => {
      await second.close();
      await first.close();
    });

    it(`lets exactly one of ${RACERS} redemptions make a key when both instances take them`, async () => {
      await raceRedemptions([first, second]);
    });

    it(`binds exactly 3 of ${RACERS} devices when both instances bind them`, async () => {
      await raceBindings([first, second], await first.adminCookie());
    });
  });
}

const REDIS_URL = process.env.TEST_REDIS_URL;

if (DIALECTS.includes('postgres') && REDIS_URL) {
  describe('postgres + redis: a change made on one instance reaches the other loader', () => {
    let first: TestApp;
    let second: TestApp;
    beforeEach(async () => {
      first = await buildTestApp('postgres', { ...LIMITS_OFF, REDIS_URL });
      second = await buildTestApp('postgres', { ...LIMITS_OFF, REDIS_URL }, { joinSchemaOf: first });
    });
    afterEach(async () => {
      await second.close();
      await first.close();
    });

    it('drops the cached key and script on the other instance once the admin changes them', async () => {
      const cookie = await first.adminCookie();
      await savePremiumScript(first, cookie, SCRIPT, CONTENT);
      const key = await insertTestScriptKey(first);
      const loadOnSecond = () => callLoader(second, { script: SCRIPT, key: key.scriptKey, hwid: 'device-1' });
      expect(scriptOf(await loadOnSecond())).toBe(CONTENT);

      const saved = await first.app.inject({
        method: 'POST',
        url: '/api/admin/scripts/save',
        headers: { cookie },
        payload: { filename: SCRIPT, content: 'return "v2"\n' },
      });
      expect(saved.statusCode).toBe(200);
      // Redis delivers the change within milliseconds, not before the admin's call returns.
      await vi.waitFor(async () => expect(scriptOf(await loadOnSecond())).toBe('return "v2"\n'));

      const off = await first.app.inject({
        method: 'POST',
        url: '/api/admin/script-keys/toggle-status',
        headers: { cookie },
        payload: { keyId: key.id },
      });
      expect(off.statusCode, off.body).toBe(200);
      await vi.waitFor(async () => expect((await loadOnSecond()).body).toContain(ACCESS_TEXTS.inactiveKey));
    });
  });
}
