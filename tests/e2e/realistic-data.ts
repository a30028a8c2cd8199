import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { ConfigurationProfile } from '../../common/configuration.ts';
import type { LicenseKey } from '../../common/licensing.ts';
import type { RedemptionKeyResponse } from '../../common/redemption.ts';
import type { ScriptKey } from '../../common/script-keys.ts';
import { E2E_ADMIN_SECRET } from './harness.ts';

/*
 * Rows with the longest values real data has, written through the API as the signed-in browser
 * would: what the layout tests hold every admin screen against.
 */

/** Long values, as real rows have them: they must wrap or be cut with a tooltip, never widen a table. */
export const LONG_NOTES =
  'Bought through the Discord shop for the whole guild; renew in spring and ask about a second device first';
export const LONG_HWID = `E2E-HWID-${'7F3A9C21'.repeat(8)}`;
export const LONG_DEVICE = {
  deviceName: 'E2E Gaming Laptop Pro Max Ultra Edition (living room, second screen)',
  os: 'Windows 11 Pro Insider Preview 24H2',
  architecture: 'x86_64',
  deviceType: 'laptop',
};
export const LONG_FILENAME = 'e2e-responsive-layout-check-with-a-rather-long-hosted-script-name.lua';

/**
 * Admin writes through the API, as the signed-in browser would send them (with its Origin).
 * Returns the parsed answer after checking the status.
 */
export async function adminPost<T>(
  page: Page,
  origin: string,
  path: string,
  data: unknown,
  status = 201,
): Promise<T> {
  const res = await page.request.post(path, { data, headers: { Origin: origin } });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(status);
  return (await res.json()) as T;
}

/** Signs the page's context in through the API (page.request shares its cookies). */
export async function signIn(page: Page, origin: string): Promise<void> {
  await adminPost(page, origin, '/api/admin/login', { adminSecret: E2E_ADMIN_SECRET }, 200);
}

/** The ids of the rows seedRows wrote, for finding them on their screens. */
export interface SeededRows {
  licenseKeyId: number;
  scriptKeyId: number;
  redemptionCodeId: number;
}

/**
 * One row on every licensing screen, each with the longest values the screen has to fit: a license
 * key, a script key and an available code with long notes, a code redeemed by a device with a long
 * hardware id and name (a binding, and code_redeemed audit rows), and a hosted file with a long name.
 */
export async function seedRows(page: Page, origin: string): Promise<SeededRows> {
  await signIn(page, origin);
  const { licenseKey } = await adminPost<{ licenseKey: LicenseKey }>(
    page,
    origin,
    '/api/admin/license-keys',
    {
      keyType: 'PREMIUM',
      maxBindings: 10,
      expiresAt: '2099-12-31T23:59:00.000Z',
      notes: LONG_NOTES,
    },
  );
  const { scriptKey } = await adminPost<{ scriptKey: ScriptKey }>(
    page,
    origin,
    '/api/admin/script-keys/create',
    {
      scriptType: 'premium_24h',
      notes: LONG_NOTES,
    },
  );
  const available = await adminPost<RedemptionKeyResponse>(page, origin, '/api/admin/create-redemption-key', {
    keyType: 'VIP',
    maxHardwareBindings: 10,
    validityDuration: 720,
    notes: LONG_NOTES,
  });

  const redeemed = await adminPost<RedemptionKeyResponse>(page, origin, '/api/admin/create-redemption-key', {
    keyType: 'PREMIUM',
    maxHardwareBindings: 1,
    validityDuration: 24,
  });
  const code = redeemed.redemptionKey.redemptionCode;
  await adminPost(page, origin, '/api/script/redeem', { code, hwid: LONG_HWID, device: LONG_DEVICE }, 200);
  // A second device past the code's one binding: a refused binding with its reason in the log.
  const refused = await page.request.post('/api/script/redeem', {
    data: { code, hwid: `${LONG_HWID}-SECOND`, device: { ...LONG_DEVICE, deviceName: 'Second PC' } },
  });
  expect(refused.ok(), 'a second device past the limit is refused').toBe(false);

  const upload = await page.request.post('/api/admin/scripts/upload', {
    headers: { Origin: origin },
    multipart: {
      directory: 'hosted-scripts',
      isPublic: 'false',
      file: { name: LONG_FILENAME, mimeType: 'text/plain', buffer: Buffer.from('print("layout")\n') },
    },
  });
  expect(upload.ok(), await upload.text()).toBe(true);
  return {
    licenseKeyId: licenseKey.id,
    scriptKeyId: scriptKey.id,
    redemptionCodeId: available.redemptionKey.id,
  };
}

/**
 * A busy day's audit log: `callers` IPv6 networks each refused by the loader's rate limit (one
 * rate_limit_hit row each, its details naming the limit, scope, /64 and count), and failed admin
 * logins from one address until its lockout refuses more. Needs a server started with
 * TRUST_PROXY=true (the callers are told apart by X-Forwarded-For) and RATE_LIMIT_LOADER=1.
 */
export async function seedBusyAuditLog(page: Page, origin: string, callers: number): Promise<void> {
  for (let i = 0; i < callers; i++) {
    const ip = `2001:db8:${(0xa000 + i).toString(16)}:${(0xbeef + i).toString(16)}::${(i + 1).toString(16)}`;
    for (let call = 0; call < 2; call++) {
      await page.request.get(`/api/script/loader?script=scanner&key=SK-${'e2e'.repeat(20)}${i}`, {
        headers: { 'x-forwarded-for': ip, 'x-hardware-id': LONG_HWID },
      });
    }
  }
  for (let attempt = 0; attempt < 8; attempt++) {
    await page.request.post('/api/admin/login', {
      data: { adminSecret: `wrong-secret-${attempt}` },
      headers: { Origin: origin, 'x-forwarded-for': '203.0.113.77' },
    });
  }
}

/**
 * Two pushes to every bot in `botIds`, with long reasons: a profile, then a bulk update of five
 * values (its audit row's details carry the updates as one long JSON value). History then has two
 * records whose per-bot tables have a row a bot.
 */
export async function pushConfigurationToBots(page: Page, origin: string, botIds: string[]): Promise<void> {
  const res = await page.request.get('/api/admin/configuration-profiles');
  const { profiles } = (await res.json()) as { profiles: ConfigurationProfile[] };
  const profile = profiles.find((p) => p.name === 'Aggressive') ?? profiles[0];
  if (!profile) throw new Error('no configuration profile to push');
  await adminPost(
    page,
    origin,
    `/api/admin/configuration-profiles/${profile.id}/apply`,
    {
      targetBotIds: botIds,
      reason:
        'Hop failures on the evening shift: faster hops and bigger batches until the weekend event ends',
    },
    200,
  );
  await adminPost(
    page,
    origin,
    '/api/admin/configurations/bulk-update',
    {
      targetBotIds: botIds,
      updates: { hopDelayMs: 1500, batchSize: 75, connectionLimit: 20, rateLimit: 250, maxRetryAttempts: 5 },
      reason: 'Slower retries and smaller connection pools while the game servers are under maintenance',
    },
    200,
  );
}

/**
 * Asks the API for `path` once a second until `isDone` holds of its answer; throws after `seconds`
 * naming `what` it waited for (expect.poll works only inside a test, and this also runs before one).
 */
export async function untilAnswer<T>(
  page: Page,
  path: string,
  isDone: (answer: T) => boolean,
  what: string,
  seconds: number,
): Promise<void> {
  for (let tries = 0; tries < seconds; tries++) {
    const res = await page.request.get(path);
    if (isDone((await res.json()) as T)) return;
    await page.waitForTimeout(1000);
  }
  throw new Error(`${what}: not after ${seconds} s`);
}
