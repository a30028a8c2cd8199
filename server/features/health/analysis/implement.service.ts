import type { Recommendation, RecommendationAction } from '../../../../common/ai-health.ts';
import { maskLicenseKey } from '../../../../common/mask.ts';
import type { AppContext } from '../../../context.ts';
import { conflict, notFound } from '../../../http-error.ts';
import { type Caller, listConfigurations } from '../../configuration/configuration.service.ts';
import { findProfile } from '../../configuration/configuration-profiles.store.ts';
import { applyProfile } from '../../configuration/configuration-pushes.service.ts';
import { switchOffScriptKey } from '../../script-keys/script-keys.service.ts';
import { insertAuditLog } from '../../security/security.store.ts';
import { listNames } from './detectors/detector.ts';
import {
  claimRecommendation,
  findRecommendationById,
  type RecommendationRow,
  recommendationRowToRecommendation,
  unclaimRecommendation,
  updateActionLabel,
} from './recommendations.store.ts';
import { SLOW_PROFILE } from './recommendations.ts';

export const IMPLEMENT_TEXTS = {
  notFound: 'Recommendation not found',
  alreadyImplemented: 'This recommendation is already implemented',
  expired:
    'This recommendation has expired: the next analysis derives a current one if its finding is still open',
  markedOnly: 'Marked implemented; the change itself is yours to make',
  resolved: 'This recommendation was resolved automatically: what it was for no longer holds',
} as const;

/** Reason texts the configuration feature keeps at most (MAX_REASON_LENGTH). */
const MAX_REASON = 500;

/**
 * Implement: marks the recommendation implemented and does its action (switches a key off, applies a
 * profile), audited; its actionLabel then says what was done. An action that no longer applies (the
 * key is off already, the bots are gone) is marked implemented and says so. A refusal from the
 * feature that acts (a 4xx) leaves it unimplemented and reaches the caller.
 */
export async function implementRecommendation(
  ctx: AppContext,
  id: number,
  caller: Caller,
): Promise<Recommendation> {
  const now = ctx.now();
  // The guard: of two Implements, one claims it and acts; the other is told it is done.
  if (!(await claimRecommendation(ctx.db, id, now))) {
    const row = await findRecommendationById(ctx.db, id);
    if (!row) throw notFound(IMPLEMENT_TEXTS.notFound);
    throw conflict(
      Number(row.is_implemented) === 1
        ? IMPLEMENT_TEXTS.alreadyImplemented
        : row.resolution !== null
          ? IMPLEMENT_TEXTS.resolved
          : IMPLEMENT_TEXTS.expired,
    );
  }
  const row = await findRecommendationById(ctx.db, id);
  if (!row) throw notFound(IMPLEMENT_TEXTS.notFound);
  const action = JSON.parse(row.action) as RecommendationAction;
  let outcome: string;
  try {
    outcome = await perform(ctx, action, row, caller);
  } catch (error) {
    await unclaimRecommendation(ctx.db, id);
    throw error;
  }
  await ctx.db.transaction().execute(async (trx) => {
    await updateActionLabel(trx, id, outcome);
    await insertAuditLog(
      trx,
      {
        eventType: 'ai_recommendation_implemented',
        success: true,
        ipAddress: caller.ip,
        details: { recommendationId: id, title: row.title, action: action.kind, outcome },
      },
      now,
    );
  });
  return recommendationRowToRecommendation({
    ...row,
    is_implemented: 1,
    implemented_at: now,
    action_label: outcome,
  });
}

/** Does the action; returns what was done, in words. */
async function perform(
  ctx: AppContext,
  action: RecommendationAction,
  recommendation: RecommendationRow,
  caller: Caller,
): Promise<string> {
  const reason = `AI recommendation #${recommendation.id}: ${recommendation.title}`.slice(0, MAX_REASON);
  switch (action.kind) {
    case 'none':
      return IMPLEMENT_TEXTS.markedOnly;
    case 'revoke_script_key': {
      const keyId = Number(action.scriptKeyId);
      const { scriptKey, switchedOff } = await switchOffScriptKey(ctx, keyId, caller, reason);
      if (!scriptKey) return `Script key #${keyId} no longer exists: nothing changed`;
      const masked = maskLicenseKey(scriptKey.scriptKey);
      return switchedOff
        ? `Switched script key ${masked} off: the loader refuses it now`
        : `Script key ${masked} was already off: nothing changed`;
    }
    case 'apply_profile': {
      const profile = await findProfile(ctx.db, action.profileId);
      if (!profile) return `The ${action.profileId} profile no longer exists: nothing applied`;
      const known = new Set((await listConfigurations(ctx)).map((c) => c.botId));
      const bots = action.botIds.filter((botId) => known.has(botId));
      const gone = action.botIds.filter((botId) => !known.has(botId));
      if (bots.length === 0) return `None of ${listNames(action.botIds)} is known any more: nothing applied`;
      const result = await applyProfile(ctx, profile.id, { targetBotIds: bots, reason }, caller);
      const name = profile.id === SLOW_PROFILE.id ? SLOW_PROFILE.name : profile.name;
      return (
        `Applied the ${name} profile to ${listNames(bots, 10)} (change #${result.changeId})` +
        (gone.length > 0 ? `; ${listNames(gone)} no longer known` : '')
      );
    }
  }
}
