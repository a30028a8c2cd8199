import {
  type GrantResetsResponse,
  HWID_RESET_WINDOW_MS,
  KEY_STATUS_TEXTS,
  type KeyStatusResponse,
  type ResetHwidResponse,
} from '../../../common/key-status.ts';
import { maskSecret } from '../../../common/mask.ts';
import { SCRIPT_KEY_TEXTS, scriptKeyDisplayStatus } from '../../../common/script-keys.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/index.ts';
import { isoOrNull } from '../../db/times.ts';
import { HttpError, notFound } from '../../http-error.ts';
import { announceScriptKeyChanged } from '../script-keys/script-keys.service.ts';
import { findScriptKeyById, lockScriptKey, type ScriptKeyRow } from '../script-keys/script-keys.store.ts';
import { insertAuditLog } from '../security/security.store.ts';
import { getSystemConfiguration } from '../system/system.service.ts';
import { findKeyByAnything } from './key-lookup.ts';
import {
  addExtraResets,
  deleteActiveDevices,
  findExtraResets,
  insertHwidReset,
  listActiveDevices,
  listBudgetResetTimes,
  spendExtraReset,
} from './key-status.store.ts';
import { blockRemovedDevices } from './removed-devices.store.ts';

/** Over budget: the 429 body carries when the next reset is possible. */
export class NoResetLeftError extends HttpError {
  constructor(readonly nextResetAt: string | null) {
    super(429, KEY_STATUS_TEXTS.noResetsLeft);
  }
}

export interface ResetClient {
  by: 'buyer' | 'admin';
  ip: string | null;
}

/**
 * The script key `given` stands for (the key itself, its license key, the code that made or renewed
 * it, or its order link: key-lookup.ts), or the one generic 404.
 */
async function findKey(ctx: AppContext, given: string): Promise<ScriptKeyRow> {
  const found = await findKeyByAnything(ctx, given);
  if (!found) throw notFound(KEY_STATUS_TEXTS.notFound);
  return found.row;
}

interface Budget {
  resetsLeft: number;
  nextResetAt: string | null;
  weeklyLeft: number;
}

/**
 * The key's budget: `perWeek` resets over the rolling window plus its granted extras. With none
 * left, the next is possible when the oldest reset still counting leaves the window.
 */
async function budgetOf(db: Db, row: ScriptKeyRow, perWeek: number, now: number): Promise<Budget> {
  const times = await listBudgetResetTimes(db, row.id, now - HWID_RESET_WINDOW_MS);
  const weeklyLeft = Math.max(0, perWeek - times.length);
  const resetsLeft = weeklyLeft + row.extra_resets;
  // The reset whose leaving the window frees a slot: with perWeek slots, the (used - perWeek + 1)th oldest.
  const freeing = perWeek > 0 ? times[times.length - perWeek] : undefined;
  const nextResetAt =
    resetsLeft > 0 || freeing === undefined ? null : isoOrNull(freeing + HWID_RESET_WINDOW_MS);
  return { resetsLeft, nextResetAt, weeklyLeft };
}

/** POST /api/script/key-status: the buyer's own key, its devices (ids masked) and its resets. */
export async function keyStatus(ctx: AppContext, key: string): Promise<KeyStatusResponse> {
  const now = ctx.now();
  const row = await findKey(ctx, key);
  const [devices, configuration] = await Promise.all([
    listActiveDevices(ctx.db, row.id),
    getSystemConfiguration(ctx),
  ]);
  const budget = await budgetOf(ctx.db, row, configuration.hwidResetsPerWeek, now);
  const expiresAt = isoOrNull(row.expires_at);
  return {
    type: row.script_type,
    status: scriptKeyDisplayStatus({ isActive: row.is_active === 1 ? 1 : 0, expiresAt }, now),
    disabledReason: row.is_active === 1 ? null : row.disabled_reason,
    expiresAt,
    maxDevices: row.max_hardware_bindings,
    devices: devices.map((device) => ({
      id: maskSecret(device.hardware_id, 4, 4),
      firstSeen: new Date(Number(device.first_bind_date)).toISOString(),
      lastSeen: new Date(Number(device.last_used_date ?? device.first_bind_date)).toISOString(),
    })),
    resetsLeft: budget.resetsLeft,
    nextResetAt: budget.nextResetAt,
    // Whatever was given proves ownership (each form is a secret only the buyer holds): the key itself.
    scriptKey: row.script_key,
  };
}

/** Removes the key's active devices and records the reset: a hwid_resets row and its audit row. */
async function removeDevices(
  trx: Db,
  row: { id: number; script_key: string },
  reset: ResetClient & { usedExtra: boolean; cooldownMs: number },
  now: number,
): Promise<number> {
  // The removed devices may not bind again for the cool-down: a script left running on the old PC
  // is refused (and stops) rather than taking back the place the reset freed for the new one.
  const devices = await listActiveDevices(trx, row.id);
  await blockRemovedDevices(
    trx,
    row.id,
    devices.map((device) => device.hardware_id),
    now + reset.cooldownMs,
  );
  const removed = await deleteActiveDevices(trx, row.id);
  await insertHwidReset(trx, { scriptKeyId: row.id, ...reset, removed }, now);
  await insertAuditLog(
    trx,
    {
      eventType: 'hwid_reset',
      success: true,
      licenseKey: row.script_key,
      ipAddress: reset.ip,
      details: { by: reset.by, scriptKeyId: row.id, removed, usedExtra: reset.usedExtra },
    },
    now,
  );
  return removed;
}

/**
 * POST /api/script/reset-hwid: removes every ACTIVE device of the key, so the next loader call binds
 * the new one. Spends the weekly budget first, then a granted extra; over budget, 429 with the time
 * of the next possible reset. An expired or switched-off key is refused (403). Audited hwid_reset.
 */
export async function resetHwid(
  ctx: AppContext,
  key: string,
  client: ResetClient,
): Promise<ResetHwidResponse> {
  const found = await findKey(ctx, key);
  const cooldownMs = ctx.config.DEVICE_RESET_COOLDOWN_MINUTES * 60_000;
  const perWeek = (await getSystemConfiguration(ctx)).hwidResetsPerWeek;
  const now = ctx.now();
  const result = await ctx.db.transaction().execute(async (trx) => {
    // Locked (PostgreSQL) so two resets of one key spend the budget one after the other.
    const row = await lockScriptKey(trx, ctx.dialect, found.id);
    if (!row) throw notFound(KEY_STATUS_TEXTS.notFound);
    if (row.expires_at !== null && row.expires_at <= now) throw new HttpError(403, KEY_STATUS_TEXTS.expired);
    if (row.is_active !== 1) throw new HttpError(403, KEY_STATUS_TEXTS.inactive);
    const before = await budgetOf(trx, row, perWeek, now);
    const usedExtra = before.weeklyLeft === 0;
    if (usedExtra && !(await spendExtraReset(trx, row.id))) throw new NoResetLeftError(before.nextResetAt);
    const removed = await removeDevices(
      trx,
      row,
      { by: client.by, ip: client.ip, usedExtra, cooldownMs },
      now,
    );
    const after = await budgetOf(
      trx,
      { ...row, extra_resets: row.extra_resets - (usedExtra ? 1 : 0) },
      perWeek,
      now,
    );
    return {
      removed,
      resetsLeft: after.resetsLeft,
      nextResetAt: after.nextResetAt,
      scriptKey: row.script_key,
    };
  });
  // Loaders drop their cached bindings, so the next call binds the new device.
  await announceScriptKeyChanged(ctx, result.scriptKey);
  return { removed: result.removed, resetsLeft: result.resetsLeft, nextResetAt: result.nextResetAt };
}

/**
 * POST /api/admin/script-keys/{id}/reset-hwid: the admin frees the key's devices whatever its state,
 * spending none of the buyer's budget. Audited hwid_reset with by 'admin'.
 */
export async function adminResetHwid(
  ctx: AppContext,
  id: number,
  client: { ip: string },
): Promise<ResetHwidResponse> {
  const now = ctx.now();
  const perWeek = (await getSystemConfiguration(ctx)).hwidResetsPerWeek;
  const result = await ctx.db.transaction().execute(async (trx) => {
    const row = await lockScriptKey(trx, ctx.dialect, id);
    if (!row) throw notFound(SCRIPT_KEY_TEXTS.notFound);
    const removed = await removeDevices(
      trx,
      row,
      {
        by: 'admin',
        ip: client.ip,
        usedExtra: false,
        cooldownMs: ctx.config.DEVICE_RESET_COOLDOWN_MINUTES * 60_000,
      },
      now,
    );
    const budget = await budgetOf(trx, row, perWeek, now);
    return {
      removed,
      resetsLeft: budget.resetsLeft,
      nextResetAt: budget.nextResetAt,
      scriptKey: row.script_key,
    };
  });
  await announceScriptKeyChanged(ctx, result.scriptKey);
  return { removed: result.removed, resetsLeft: result.resetsLeft, nextResetAt: result.nextResetAt };
}

/** POST /api/admin/script-keys/{id}/grant-resets: extra resets beyond the weekly budget, audited. */
export async function grantResets(
  ctx: AppContext,
  id: number,
  count: number,
  client: { ip: string },
): Promise<GrantResetsResponse> {
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await addExtraResets(trx, id, count))) throw notFound(SCRIPT_KEY_TEXTS.notFound);
    const row = await lockScriptKey(trx, ctx.dialect, id);
    await insertAuditLog(
      trx,
      {
        eventType: 'hwid_resets_granted',
        success: true,
        licenseKey: row?.script_key ?? null,
        ipAddress: client.ip,
        details: { by: 'admin', scriptKeyId: id, count, extraResets: row?.extra_resets },
      },
      now,
    );
  });
  const [scriptKey, extraResets] = await Promise.all([
    findScriptKeyById(ctx.db, id),
    findExtraResets(ctx.db, id),
  ]);
  if (!scriptKey || extraResets === undefined) throw notFound(SCRIPT_KEY_TEXTS.notFound);
  return { scriptKey: { ...scriptKey, extraResets } };
}
