import { createHmac } from 'node:crypto';
import { expect } from 'vitest';
import type { RedemptionKeyType } from '../../../common/redemption.ts';
import { insertTestScriptKey as insertSharedTestScriptKey } from '../../test/fixtures.ts';
import type { TestApp } from '../../test/helper.ts';

/*
 * What the script-access tests set up: codes and keys written straight into the test app's database
 * (the admin screens that make them are tested with their own routes), and a PREMIUM script saved
 * through the admin API as the administrator would.
 */

type App = Pick<TestApp, 'app' | 'ctx' | 'clock'>;

export const HOUR_MS = 60 * 60 * 1000;

let codeCounter = 0;

/** An available code; returns its text and id. */
export async function insertRedemptionCode(
  t: App,
  options: {
    keyType?: RedemptionKeyType;
    maxHardwareBindings?: number;
    validityDuration?: number;
    expiresAt?: number | null;
    isRedeemed?: 0 | 1;
  } = {},
): Promise<{ id: number; code: string }> {
  codeCounter += 1;
  const code = `SCANLINE-TEST-${String(codeCounter).padStart(4, '0')}-ABCD-EF23`;
  const row = await t.ctx.db
    .insertInto('redemption_keys')
    .values({
      redemption_code: code,
      key_type: options.keyType ?? 'PREMIUM',
      is_redeemed: options.isRedeemed ?? 0,
      redeemed_at: options.isRedeemed ? t.clock.now() : null,
      expires_at: options.expiresAt ?? null,
      created_at: t.clock.now(),
      max_hardware_bindings: options.maxHardwareBindings ?? 1,
      validity_duration: options.validityDuration ?? 24,
      notes: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, code };
}

/** A script key as the admin would create it: the shared fixture's, but valid a day unless told. */
export function insertTestScriptKey(
  t: App,
  options: Parameters<typeof insertSharedTestScriptKey>[1] = {},
): Promise<{ id: number; scriptKey: string }> {
  return insertSharedTestScriptKey(t, { expiresAt: t.clock.now() + 24 * HOUR_MS, ...options });
}

/** Saves `content` as `filename` and makes it PREMIUM, through the admin API. */
export async function savePremiumScript(t: App, cookie: string, filename: string, content: string) {
  const saved = await t.app.inject({
    method: 'POST',
    url: '/api/admin/scripts/save',
    headers: { cookie },
    payload: { filename, content },
  });
  expect(saved.statusCode, saved.body).toBeLessThan(300);
  const typed = await t.app.inject({
    method: 'PUT',
    url: `/api/admin/scripts/${encodeURIComponent(filename)}/access-type`,
    headers: { cookie },
    payload: { accessType: 'PREMIUM' },
  });
  expect(typed.statusCode, typed.body).toBe(200);
}

/** GET /api/script/loader with these query fields (URL-encoded) and headers. */
export function callLoader(
  t: Pick<TestApp, 'app'>,
  query: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return t.app.inject({
    method: 'GET',
    url: `/api/script/loader?${new URLSearchParams(query).toString()}`,
    headers,
  });
}

/** What challenge mode signs: hex(HMAC-SHA256(key, nonce + hwid + script)). */
export function challengeSignature(key: string, nonce: string, hwid: string, script: string): string {
  return createHmac('sha256', key)
    .update(nonce + hwid + script)
    .digest('hex');
}

/** Audit rows of one type, oldest first, details parsed (flush pending writes before). */
export async function auditRows(t: App, eventType: string) {
  const rows = await t.ctx.db
    .selectFrom('audit_logs')
    .selectAll()
    .where('event_type', '=', eventType)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ ...row, details: JSON.parse(row.details) as Record<string, unknown> }));
}

/** The key's bindings, oldest first. */
export function scriptKeyBindings(t: App, scriptKeyId: number) {
  return t.ctx.db
    .selectFrom('hardware_bindings')
    .selectAll()
    .where('script_key_id', '=', scriptKeyId)
    .orderBy('id')
    .execute();
}

/** The first line the loader puts before every script it serves (`local SCANLINE = {...}`). */
export const PREAMBLE_PATTERN = /^local SCANLINE = \{[^\n]*\}\n/;

/** A served loader answer without its preamble line: the script's own bytes. */
export function scriptOf(res: { body: string }): string {
  return res.body.replace(PREAMBLE_PATTERN, '');
}

/**
 * The status a loader answer stands for: an executor's refusal comes with 200 and the real status in
 * X-Scanline-Refusal (`403 key-disabled`); any other answer, its own status.
 */
export function loaderStatus(res: { statusCode: number; headers: Record<string, unknown> }): number {
  const refusal = res.headers['x-scanline-refusal'];
  return typeof refusal === 'string' ? Number(refusal.split(' ', 1)[0]) : res.statusCode;
}

/** The served bytes without the preamble line. */
export function rawScriptOf(bytes: Buffer): Buffer {
  const text = bytes.toString('latin1');
  const match = PREAMBLE_PATTERN.exec(text);
  return match ? bytes.subarray(Buffer.byteLength(match[0], 'latin1')) : bytes;
}
