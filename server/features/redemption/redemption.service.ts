import type { z } from 'zod';
import {
  type CreateRedemptionKeySchema,
  REDEMPTION_TEXTS,
  type RedemptionKey,
  type RedemptionKeyListResponse,
} from '../../../common/redemption.ts';
import type { AppContext } from '../../context.ts';
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

/** Creates an available code with a fresh random value; an expiry, when given, must lie ahead. */
export async function createRedemptionKey(
  ctx: AppContext,
  input: z.output<typeof CreateRedemptionKeySchema>,
  client: AdminClient,
): Promise<RedemptionKey> {
  const now = ctx.now();
  const expiresAt = futureExpiry(input.expiresAt, now, REDEMPTION_TEXTS.expiresInPast);
  const notes = input.notes?.trim() || null;
  const created = await ctx.db.transaction().execute(async (trx) => {
    for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt++) {
      const redemptionCode = generateRedemptionCode();
      const id = await insertRedemptionKeyUnlessTaken(
        trx,
        {
          redemptionCode,
          keyType: input.keyType,
          maxHardwareBindings: input.maxHardwareBindings,
          validityDuration: input.validityDuration,
          expiresAt,
          notes,
        },
        now,
      );
      if (id === undefined) continue;
      await insertAuditLog(
        trx,
        {
          eventType: 'redemption_code_created',
          success: true,
          licenseKey: redemptionCode,
          ipAddress: client.ip,
          details: {
            id,
            keyType: input.keyType,
            maxHardwareBindings: input.maxHardwareBindings,
            validityDuration: input.validityDuration,
            expiresAt: isoOrNull(expiresAt),
          },
        },
        now,
      );
      const created = await findRedemptionKeyById(trx, id);
      if (!created) throw new Error(`redemption code ${id} vanished after insert`);
      return created;
    }
    throw new Error(`no free redemption code after ${CODE_ATTEMPTS} draws`);
  });
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
