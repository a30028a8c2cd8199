import { ORDER_PAGE_PREFIX } from '../../../common/order-texts.ts';
import { REDEMPTION_CODE_PATTERN } from '../../../common/redemption.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/index.ts';
import { HttpError } from '../../http-error.ts';
import { readOrderStatus } from '../payments/orders.service.ts';
import { findRedemptionCodeRow } from '../redemption/redemption.store.ts';
import { looksLikeLicenseKey, resolveLicenseKey } from '../script-keys/license-resolution.ts';
import {
  findScriptKeyByKey,
  findScriptKeyRowById,
  type ScriptKeyRow,
} from '../script-keys/script-keys.store.ts';

/**
 * What a buyer may type where a key is asked for (/key, the universal script's box): the script key
 * itself, the license key it resolves to, the code that made or renewed it (once redeemed), or the
 * order link /order/{id}#{secret} whose code did. Each proves its holder owns the key (each is a
 * secret only the buyer was given), so the answer may carry the whole script key.
 */
export type KeyGiven = 'script-key' | 'license-key' | 'code' | 'order';

/** `…/order/{id}#{secret}`, a whole link or just its path. */
const ORDER_LINK = new RegExp(`${ORDER_PAGE_PREFIX}([A-Za-z0-9_-]+)#([A-Za-z0-9_-]+)\\s*$`);

/** The script key a redeemed code became or renewed; undefined for a code never redeemed. */
async function scriptKeyOfCode(db: Db, code: string): Promise<ScriptKeyRow | undefined> {
  const found = await findRedemptionCodeRow(db, code.trim().toUpperCase());
  if (found?.is_redeemed !== 1) return undefined;
  const made = await db
    .selectFrom('script_keys')
    .selectAll()
    .where('redemption_key_id', '=', found.id)
    .executeTakeFirst();
  if (made) return made;
  const renewal = await db
    .selectFrom('key_renewals')
    .select('script_key_id')
    .where('redemption_key_id', '=', found.id)
    .executeTakeFirst();
  return renewal ? findScriptKeyRowById(db, renewal.script_key_id) : undefined;
}

/** The code of the order the link names, when its secret is right (the payments feature checks it). */
async function codeOfOrderLink(ctx: AppContext, id: string, secret: string): Promise<string | undefined> {
  try {
    return (await readOrderStatus(ctx, id, secret)).code;
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 404) return undefined;
    throw error;
  }
}

/**
 * The script key `given` stands for, and what it was; undefined when it stands for none (unknown,
 * wrong case for a script key, a code not yet redeemed, an order with a wrong secret or no code).
 */
export async function findKeyByAnything(
  ctx: AppContext,
  given: string,
): Promise<{ row: ScriptKeyRow; given: KeyGiven } | undefined> {
  const text = given.trim();
  if (text.startsWith('SK-')) {
    const row = await findScriptKeyByKey(ctx.db, text);
    // Compared again here so no collation can make a wrong-case key match.
    return row && row.script_key === text ? { row, given: 'script-key' } : undefined;
  }
  if (looksLikeLicenseKey(text)) {
    const row = await resolveLicenseKey(ctx, text);
    return row && { row, given: 'license-key' };
  }
  if (REDEMPTION_CODE_PATTERN.test(text.toUpperCase())) {
    const row = await scriptKeyOfCode(ctx.db, text);
    return row && { row, given: 'code' };
  }
  const order = ORDER_LINK.exec(text);
  if (order?.[1] && order[2]) {
    const code = await codeOfOrderLink(ctx, order[1], order[2]);
    const row = code === undefined ? undefined : await scriptKeyOfCode(ctx.db, code);
    return row && { row, given: 'order' };
  }
  return undefined;
}
