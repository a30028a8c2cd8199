import type { AnalysisResult, Recommendation } from '../../../../common/ai-health.ts';
import type { AppContext } from '../../../context.ts';
import { conflict, notFound } from '../../../http-error.ts';
import { findScriptKeyById } from '../../script-keys/script-keys.store.ts';
import { getSlotUsage } from '../../system/system.service.ts';
import {
  advanceWatermark,
  deleteAnalysisBefore,
  evidenceOf,
  findFindingById,
  findingRowToAnalysisResult,
  findOpenFindingLastSeen,
  findWatermark,
  listFindings,
  listOpenFindings,
  resolveFindingById,
  upsertOpenFinding,
} from './analysis.store.ts';
import { detectLoginBursts, detectRateLimitBursts } from './detectors/audit-bursts.ts';
import { detectClientErrors } from './detectors/client-errors.ts';
import { detectUnacknowledgedConfigs } from './detectors/config-not-acknowledged.ts';
import {
  type AnalysisWindow,
  type Detector,
  type FindingCandidate,
  HOUR_MS,
  MINUTE_MS,
} from './detectors/detector.ts';
import { detectFailingBots, detectFailingServers } from './detectors/failure-outliers.ts';
import { detectFleetNotLive } from './detectors/fleet-not-live.ts';
import { detectHopFailureSpike } from './detectors/hop-failure-spike.ts';
import { detectSharedKeys } from './detectors/shared-key.ts';
import { detectSlotsNearlyFull } from './detectors/slots-nearly-full.ts';
import {
  findFindingsNeedingRecommendation,
  findFindingsWithPendingRecommendation,
  insertRecommendation,
  listRecommendations,
  resolvePendingRecommendation,
  updatePendingRecommendation,
} from './recommendations.store.ts';
import { RECOMMENDATION_VALID_MS, type RecommendationState, recommendationFor } from './recommendations.ts';
import { closeFindingsNoLongerHolding } from './self-closing.ts';

/** The periodic sweep runs the analysis this often (Generate Report runs it too). */
export const ANALYSIS_EVERY_MS = MINUTE_MS;
/** The first run, with no watermark yet, reads this far back. */
export const FIRST_RUN_LOOKBACK_MS = 6 * HOUR_MS;
/**
 * A run reads up to this long before now: hops are written in batches (every 250 ms) and audit rows
 * a second later, so anything older is in the database and no row lands behind the watermark.
 */
export const SETTLE_MS = 5_000;
/** GET /api/admin/ai-analysis and ai-recommendations answer at most this many. */
export const ANALYSIS_LIST_LIMIT = 200;
/** Resolved findings and implemented or expired recommendations are deleted this long after. */
export const ANALYSIS_RETENTION_MS = 30 * 24 * HOUR_MS;

export const ANALYSIS_TEXTS = {
  findingNotFound: 'Finding not found',
  alreadyResolved: 'This finding is already resolved',
} as const;

const DETECTORS: Detector[] = [
  detectHopFailureSpike,
  detectFailingBots,
  detectFailingServers,
  detectLoginBursts,
  detectRateLimitBursts,
  detectSharedKeys,
  detectClientErrors,
  detectSlotsNearlyFull,
  detectUnacknowledgedConfigs,
  detectFleetNotLive,
];

/**
 * Runs every detector over the data since the previous run's watermark (the first run: the last
 * FIRST_RUN_LOOKBACK_MS), records their findings, closes the open ones whose condition no longer
 * holds (self-closing.ts) and derives recommendations; returns the open findings. Runs on one
 * instance take turns; across instances the watermark is moved in the same transaction that writes
 * the findings, so only one run counts a stretch of data (and judges what still holds).
 */
export function runAnalysis(ctx: AppContext, now: number): Promise<AnalysisResult[]> {
  return ctx.services.analysisRuns.run(() => analyse(ctx, now));
}

async function analyse(ctx: AppContext, now: number): Promise<AnalysisResult[]> {
  const watermark = await findWatermark(ctx.db);
  const to = now - SETTLE_MS;
  const window: AnalysisWindow = { from: watermark ?? to - FIRST_RUN_LOOKBACK_MS, to };
  if (window.to > window.from) {
    await ctx.services.fleet.flush();
    const candidates = (await Promise.all(DETECTORS.map((detect) => detect(ctx, window)))).flat();
    await ctx.db.transaction().execute(async (trx) => {
      // Another run (on another instance) read this stretch first: its findings stand.
      if (!(await advanceWatermark(trx, watermark, window.to))) return;
      const inTransaction = { ...ctx, db: trx };
      for (const candidate of candidates) {
        const occurrences = (await isGoingOn(inTransaction, candidate, window)) ? 0 : candidate.occurrences;
        await upsertOpenFinding(trx, candidate, occurrences, now);
      }
      await closeFindingsNoLongerHolding(trx, ctx.config, candidates, window, now);
      await deriveRecommendations(inTransaction, now);
    });
  }
  return listOpenFindings(ctx.db);
}

/** A state finding the previous run saw too is the same occurrence going on. */
async function isGoingOn(
  ctx: AppContext,
  candidate: FindingCandidate,
  window: AnalysisWindow,
): Promise<boolean> {
  if (!candidate.isState) return false;
  const lastSeen = await findOpenFindingLastSeen(ctx.db, candidate.analysisType, candidate.subject);
  return lastSeen !== null && lastSeen >= window.from;
}

/**
 * One recommendation per open finding that has none implemented or still standing. A pending one is
 * rewritten from its finding's latest evidence, as the finding's own texts are, so the two always
 * count the same thing (not "2 pushes" in the finding and "1 push" in its recommendation); it closes
 * itself ('automatic') when its finding is closed, or when the state now makes it pointless (the key
 * is off already, the slots were raised).
 */
async function deriveRecommendations(ctx: AppContext, now: number): Promise<void> {
  const state: RecommendationState = {
    scriptKeyActive: async (id) => {
      const key = await findScriptKeyById(ctx.db, id);
      return key ? key.isActive === 1 : undefined;
    },
    slotUsage: () => getSlotUsage(ctx),
  };
  for (const row of await findFindingsWithPendingRecommendation(ctx.db, now)) {
    const draft =
      Number(row.is_resolved) === 1
        ? null
        : await recommendationFor({ ...row, evidence: evidenceOf(row) }, state);
    if (draft) await updatePendingRecommendation(ctx.db, row.id, draft, now);
    else await resolvePendingRecommendation(ctx.db, row.id, now);
  }
  for (const row of await findFindingsNeedingRecommendation(ctx.db, now)) {
    const draft = await recommendationFor({ ...row, evidence: evidenceOf(row) }, state);
    if (!draft) continue;
    await insertRecommendation(
      ctx.db,
      { ...draft, analysisId: row.id, validUntil: now + RECOMMENDATION_VALID_MS },
      now,
    );
  }
}

export function listAnalysis(ctx: AppContext): Promise<AnalysisResult[]> {
  return listFindings(ctx.db, ANALYSIS_LIST_LIMIT);
}

/** Unimplemented and valid first, then newest. */
export function listRecommendationsForAdmin(ctx: AppContext): Promise<Recommendation[]> {
  return listRecommendations(ctx.db, ctx.now(), ANALYSIS_LIST_LIMIT);
}

/** Deletes what is past ANALYSIS_RETENTION_MS; returns the rows deleted. */
export function pruneAnalysis(ctx: AppContext): Promise<number> {
  return deleteAnalysisBefore(ctx.db, ctx.now() - ANALYSIS_RETENTION_MS);
}

/** Resolves an open finding; a recurrence of its cause then opens a new one. 404 unknown, 409 resolved already. */
export async function resolveFinding(ctx: AppContext, id: number): Promise<AnalysisResult> {
  const resolved = await resolveFindingById(ctx.db, id, ctx.now());
  const row = await findFindingById(ctx.db, id);
  if (!row) throw notFound(ANALYSIS_TEXTS.findingNotFound);
  if (!resolved) throw conflict(ANALYSIS_TEXTS.alreadyResolved);
  return findingRowToAnalysisResult(row);
}
