import { REDEMPTION_TEXTS } from '../../../common/redemption.ts';
import type { AppContext } from '../../context.ts';
import { isSerializationFailure, isUniqueViolation } from '../../db/errors.ts';
import { conflict } from '../../http-error.ts';
import { insertAuditLog } from '../security/security.store.ts';

/** Another redemption of the same code won. Thrown inside the transaction, so the loser writes nothing. */
export class RedemptionConflict extends Error {}

/** Whether a redemption's transaction failed because another redemption of the code won. */
export function isRedeemConflict(error: unknown): boolean {
  // PostgreSQL may also settle the race by failing the loser's transaction outright.
  return error instanceof RedemptionConflict || isSerializationFailure(error) || isUniqueViolation(error);
}

/** The loser of a redemption race: a transaction_conflict audit row (after its rollback), then 409. */
export async function auditRedeemConflict(
  ctx: AppContext,
  redemptionKeyId: number,
  ip: string,
  hwid: string | undefined,
): Promise<never> {
  await insertAuditLog(
    ctx.db,
    {
      eventType: 'transaction_conflict',
      success: false,
      ipAddress: ip,
      hardwareId: hwid ?? null,
      details: { operation: 'code_redeem', redemptionKeyId },
    },
    ctx.now(),
  );
  throw conflict(REDEMPTION_TEXTS.conflict);
}
