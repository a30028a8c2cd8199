import {
  BOT_CREDENTIAL_PREFIX,
  BOT_ENROLLMENT_TEXTS,
  type EnrollBotResponse,
  type EnrolledBot,
  type RevokeEnrollmentResponse,
} from '../../../common/bot-enrollment.ts';
import type { AppContext } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { conflict, HttpError, notFound } from '../../http-error.ts';
import { randomToken, sha256 } from '../auth/secret.ts';
import { insertAuditLog } from '../security/security.store.ts';
import {
  countLiveCredentials,
  findCredentialState,
  insertCredential,
  listEnrolledBots,
  lockEnrollments,
  replaceCredential,
  revokeCredential,
} from './bot-credential.store.ts';
import type { BotCaller } from './bot-credentials.ts';
import { keyIdOf } from './enrolled-bots.ts';
import { FLEET_TEXTS } from './fleet-texts.ts';

/**
 * Enrolls `ghostId` (POST /api/bot/enroll) and returns its new botToken, shown this once: only its
 * SHA-256 is kept. The shared token enrolls an id that has no live credential (a new one while fewer
 * than FLEET_MAX_BOTS are enrolled, else 409: nobody is evicted); an id enrolled already needs its
 * own current botToken as the caller (409 with the shared token), which it replaces. Every instance
 * is told, so sockets opened with the old credential, or with the shared token for this id, close.
 * Audited as `bot_enrolled`.
 */
export async function enrollBot(
  ctx: AppContext,
  caller: BotCaller,
  ghostId: string,
  ip: string | null,
): Promise<EnrollBotResponse> {
  if (caller.kind === 'enrolled' && caller.ghostId !== ghostId)
    throw new HttpError(403, BOT_ENROLLMENT_TEXTS.otherBot(caller.ghostId, ghostId));
  const botToken = `${BOT_CREDENTIAL_PREFIX}${randomToken(32)}`;
  const tokenHash = sha256(botToken);
  const at = ctx.now();
  const max = ctx.config.FLEET_MAX_BOTS;
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await lockEnrollments(trx, ctx.dialect);
      if (caller.kind === 'enrolled') {
        // Its credential was revoked or replaced since it was checked: it is no longer this bot's.
        const replaced = await replaceCredential(trx, {
          ghostId,
          tokenHash,
          at,
          ip,
          current: caller.tokenHash,
        });
        if (!replaced) throw new HttpError(401, BOT_ENROLLMENT_TEXTS.revoked);
      } else {
        const state = await findCredentialState(trx, ghostId);
        if (state === 'live') throw conflict(BOT_ENROLLMENT_TEXTS.alreadyEnrolled(ghostId));
        if ((await countLiveCredentials(trx)) >= max) throw conflict(FLEET_TEXTS.full(max));
        if (state === 'revoked') await replaceCredential(trx, { ghostId, tokenHash, at, ip, current: null });
        else await insertCredential(trx, { ghostId, tokenHash, at, ip });
      }
      await insertAuditLog(
        trx,
        {
          eventType: 'bot_enrolled',
          success: true,
          ipAddress: ip,
          details: { ghostId, with: caller.kind === 'enrolled' ? 'its botToken' : 'the shared bot token' },
        },
        at,
      );
    });
  } catch (error) {
    // Belt and braces: the lock makes a second enrollment of one id wait and then see the first.
    if (isUniqueViolation(error)) throw conflict(BOT_ENROLLMENT_TEXTS.alreadyEnrolled(ghostId));
    throw error;
  }
  await ctx.services.enrolledBots.announce({ kind: 'enrolled', ghostId, keyId: keyIdOf(tokenHash) });
  return { ghostId, botToken };
}

/**
 * Revokes a bot's credential (the administrator): refused at once on every instance (each check
 * reads the database), its sockets closed at once wherever they are (the bus; else at the next
 * liveness sweep). It stays out of the shared token's reach; it may enroll again with BOT_TOKEN.
 * Audited as `bot_revoked`. 404 for a bot without a live credential.
 */
export async function revokeBot(
  ctx: AppContext,
  ghostId: string,
  ip: string | null,
): Promise<RevokeEnrollmentResponse> {
  const at = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await revokeCredential(trx, ghostId, at)))
      throw notFound(BOT_ENROLLMENT_TEXTS.notEnrolled(ghostId));
    await insertAuditLog(
      trx,
      { eventType: 'bot_revoked', success: true, ipAddress: ip, details: { ghostId } },
      at,
    );
  });
  await ctx.services.enrolledBots.announce({ kind: 'revoked', ghostId });
  return { success: true, ghostId };
}

export function listEnrollments(ctx: AppContext): Promise<EnrolledBot[]> {
  return listEnrolledBots(ctx.db);
}
