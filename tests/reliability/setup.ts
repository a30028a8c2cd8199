import { insertRedemptionCode } from '../../server/features/loader/script-access.fixtures.ts';
import { insertTestScriptKey } from '../../server/test/fixtures.ts';
import { TEST_BOT_TOKEN, type TestApp } from '../../server/test/helper.ts';

/** The seed every fuzz run starts from (RELIABILITY_SEED overrides it; a failure names it). */
export const SEED = Number(process.env.RELIABILITY_SEED ?? 20261122);
/**
 * Generated calls per route or frame kind. The default, 10, keeps the fuzz of both dialects near a
 * minute in CI: over some 95 routes and 20 frame kinds every hostile kind (U+0000, lone surrogates,
 * 300 KB strings, 1e400, wrong types, deep nesting, extra and __proto__ keys) is drawn many times, and
 * the fixed seed draws the same calls on every run. For a longer hunt raise it by hand
 * (`RELIABILITY_RUNS=100`), with another seed too (`RELIABILITY_SEED=…`).
 */
export const RUNS = Number(process.env.RELIABILITY_RUNS ?? 10);

/**
 * Limits high enough that the fuzz reaches the routes' own checks rather than the rate limiter
 * (the limits themselves are tested by their features).
 */
export const FUZZ_ENV: Record<string, string> = {
  RATE_LIMIT_LOGIN: '1000000',
  RATE_LIMIT_REDEEM: '1000000',
  RATE_LIMIT_CHALLENGE: '1000000',
  RATE_LIMIT_LOADER: '1000000',
  RATE_LIMIT_FEED: '1000000',
  RATE_LIMIT_BOT_EVENTS: '1000000',
  RATE_LIMIT_BOT_EVENTS_BURST: '1000000',
  RATE_LIMIT_BOT_AUTH_FAILURES: '1000000',
  POOL_MAX_SERVERS_PER_BOT: '1000',
};

export const BOT_HEADERS = { authorization: `Bearer ${TEST_BOT_TOKEN}` };

export interface Seeded {
  scriptKey: string;
  freeScriptKey: string;
  code: string;
  ghostId: string;
}

/** Rows for the fuzz to reach: a bot with hops and finds, pool servers, keys, a code, a premium script. */
export async function seed(t: TestApp, cookie: string): Promise<Seeded> {
  const ghostId = 'reliability-bot-1';
  const events = await t.app.inject({
    method: 'POST',
    url: '/api/bot/events',
    headers: BOT_HEADERS,
    payload: {
      ghostId,
      events: [
        { type: 'hello', payload: { ghostId, version: '1' } },
        {
          type: 'server_hop',
          payload: {
            fromJobId: null,
            toJobId: 'job-1',
            fromPlaceId: null,
            toPlaceId: '109983668079237',
            success: true,
            latencyMs: 120,
            hopReason: 'auto_scan',
          },
        },
        {
          type: 'pet_discovered',
          payload: { name: 'La Vacca Saturno', value: '$12M/s', placeid: '109983668079237', jobid: 'job-1' },
        },
      ],
    },
  });
  if (events.statusCode !== 200) throw new Error(`seed: bot events ${events.statusCode} ${events.body}`);
  const servers = await t.app.inject({
    method: 'POST',
    url: '/api/server-pool/servers',
    headers: BOT_HEADERS,
    payload: {
      servers: Array.from({ length: 5 }, (_, i) => ({ placeId: '109983668079237', jobId: `seed-job-${i}` })),
    },
  });
  if (servers.statusCode !== 200) throw new Error(`seed: pool servers ${servers.statusCode} ${servers.body}`);
  const saved = await t.app.inject({
    method: 'POST',
    url: '/api/admin/scripts/save',
    headers: { cookie },
    payload: { filename: 'reliability.lua', content: 'print("hello")' },
  });
  if (saved.statusCode >= 300) throw new Error(`seed: script ${saved.statusCode} ${saved.body}`);
  const premium = await insertTestScriptKey(t);
  const free = await insertTestScriptKey(t, { scriptType: 'FREE' as never });
  const code = await insertRedemptionCode(t);
  return { scriptKey: premium.scriptKey, freeScriptKey: free.scriptKey, code: code.code, ghostId };
}
