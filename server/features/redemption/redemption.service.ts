import type { z } from 'zod';
import {
  type CreateRedemptionKeySchema,
  REDEMPTION_TEXTS,
  type RedemptionKey,
  type RedemptionKeyListResponse,
  type RedemptionKeyType,
} from '../../../common/redemption.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/index.ts';
import { isoOrNull } from '../../db/times.ts';
import { notFound } from '../../http-error.ts';
import { futureExpiry } from '../licensing/expiry.ts';
import type { AdminClient } from '../licensing/licensing.service.ts';
import { announceLicensingChanged } from '../licensing/licensing-events.ts';
import { insertAuditLog } from '../security/security.store.ts';
import {
  deleteRedemptionKeyById,
  findRedemptionKeyById,
  insertRedemptionKeyUnlessTaken,
  listRedemptionKeys,
} from './redemption.store.ts';
import { generateRedemptionCode } from './redemption-code.ts';

/** A clash of two 82-bit codes is already unheard of; a handful of draws makes it impossible in practice. */
const CODE_ATTEMPTS = 5;

export async function listRedemptionKeysForAdmin(ctx: AppContext): Promise<RedemptionKeyListResponse> {
  const redemptionKeys = await listRedemptionKeys(ctx.db);
  return { redemptionKeys, count: redemptionKeys.length, timestamp: new Date(ctx.now()).toISOString() };
}

/** What a new code delivers, as the create-code form (or a paid order's terms) says. */
export interface NewCodeTerms {
  keyType: RedemptionKeyType;
  maxHardwareBindings: number;
  validityDuration: number;
  /** Epoch milliseconds, or null for none. */
  expiresAt: number | null;
  notes: string | null;
}

/**
 * Inserts one available code with a fresh random value and its `redemption_code_created` audit row,
 * inside the caller's transaction (the admin's create, or a paid order's delivery alongside the
 * order's own update). The caller announces the change after committing.
 */
export async function insertNewRedemptionCode(
  trx: Db,
  terms: NewCodeTerms,
  audit: { ip: string | null; details?: Record<string, unknown> },
  now: number,
): Promise<RedemptionKey> {
  for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt++) {
    const redemptionCode = generateRedemptionCode();
    const id = await insertRedemptionKeyUnlessTaken(trx, { redemptionCode, ...terms }, now);
    if (id === undefined) continue;
    await insertAuditLog(
      trx,
      {
        eventType: 'redemption_code_created',
        success: true,
        licenseKey: redemptionCode,
        ipAddress: audit.ip,
        details: {
          id,
          keyType: terms.keyType,
          maxHardwareBindings: terms.maxHardwareBindings,
          validityDuration: terms.validityDuration,
          expiresAt: isoOrNull(terms.expiresAt),
          ...audit.details,
        },
      },
      now,
    );
    const created = await findRedemptionKeyById(trx, id);
    if (!created) throw new Error(`redemption code ${id} vanished after insert`);
    return created;
  }
  throw new Error(`no free redemption code after ${CODE_ATTEMPTS} draws`);
}

/** Creates an available code with a fresh random value; an expiry, when given, must lie ahead. */
export async function createRedemptionKey(
  ctx: AppContext,
  input: z.output<typeof CreateRedemptionKeySchema>,
  client: AdminClient,
): Promise<RedemptionKey> {
  const now = ctx.now();
  const expiresAt = futureExpiry(input.expiresAt, now, REDEMPTION_TEXTS.expiresInPast);
  const terms: NewCodeTerms = {
    keyType: input.keyType,
    maxHardwareBindings: input.maxHardwareBindings,
    validityDuration: input.validityDuration,
    expiresAt,
    notes: input.notes?.trim() || null,
  };
  const created = await ctx.db
    .transaction()
    .execute((trx) => insertNewRedemptionCode(trx, terms, { ip: client.ip }, now));
  await announceLicensingChanged(ctx, 'redemption_code');
  return created;
}

/** Deletes a code, redeemed or not; the script key it became stays and keeps working. */
export async function deleteRedemptionKey(ctx: AppContext, id: number, client: AdminClient): Promise<void> {
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    const existing = await findRedemptionKeyById(trx, id);
    if (!existing || !(await deleteRedemptionKeyById(trx, id))) throw notFound(REDEMPTION_TEXTS.notFound);
    await insertAuditLog(
      trx,
      {
        eventType: 'redemption_code_deleted',
        success: true,
        licenseKey: existing.redemptionCode,
        ipAddress: client.ip,
        details: {
          id,
          keyType: existing.keyType,
          isRedeemed: existing.isRedeemed,
          scriptKeyId: existing.scriptKeyId,
        },
      },
      now,
    );
  });
  await announceLicensingChanged(ctx, 'redemption_code');
}
