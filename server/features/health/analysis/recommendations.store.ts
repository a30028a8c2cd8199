import { type Selectable, sql } from 'kysely';
import type { Recommendation, RecommendationAction } from '../../../../common/ai-health.ts';
import type { Db } from '../../../db/index.ts';
import type { FindingRow } from './analysis.store.ts';
import type { RecommendationsTable } from './analysis.table.ts';

/*
 * The recommendations derived from open findings: which findings need one, what each says and does,
 * and the claim that lets one Implement act.
 */

export type RecommendationRow = Selectable<RecommendationsTable>;

export function recommendationRowToRecommendation(row: RecommendationRow): Recommendation {
  return {
    id: String(row.id),
    priority: row.priority,
    category: row.category,
    title: row.title,
    description: row.description,
    reasoning: row.reasoning,
    estimatedImpact: row.estimated_impact,
    implementationNotes: row.implementation_notes,
    createdAt: new Date(Number(row.created_at)).toISOString(),
    validUntil: new Date(Number(row.valid_until)).toISOString(),
    isImplemented: Number(row.is_implemented) === 1 ? 1 : 0,
    analysisId: row.analysis_id === null ? null : String(row.analysis_id),
    action: JSON.parse(row.action) as RecommendationAction,
    actionLabel: row.action_label,
    resolvedAt: row.resolved_at === null ? null : new Date(Number(row.resolved_at)).toISOString(),
    resolution: row.resolution,
  };
}

/**
 * Open findings with no recommendation that is implemented or still standing at `now` (valid and not
 * closed by a run): a condition that came back gets a new one.
 */
export function findFindingsNeedingRecommendation(db: Db, now: number): Promise<FindingRow[]> {
  return db
    .selectFrom('analysis_findings as f')
    .selectAll('f')
    .where('f.is_resolved', '=', 0)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('recommendations as r')
            .select('r.id')
            .whereRef('r.analysis_id', '=', 'f.id')
            .where((eb) =>
              eb.or([
                eb('r.is_implemented', '=', 1),
                eb.and([eb('r.valid_until', '>', now), eb('r.resolved_at', 'is', null)]),
              ]),
            ),
        ),
      ),
    )
    .orderBy('f.id')
    .execute();
}

/**
 * Findings, open or resolved, with a pending recommendation (not implemented, not closed by a run,
 * still valid at `now`): a run rewrites it from its open finding, or closes it with its finding.
 */
export function findFindingsWithPendingRecommendation(db: Db, now: number): Promise<FindingRow[]> {
  return db
    .selectFrom('analysis_findings as f')
    .selectAll('f')
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('recommendations as r')
          .select('r.id')
          .whereRef('r.analysis_id', '=', 'f.id')
          .where('r.is_implemented', '=', 0)
          .where('r.resolved_at', 'is', null)
          .where('r.valid_until', '>', now),
      ),
    )
    .orderBy('f.id')
    .execute();
}

/**
 * Rewrites what a finding's pending recommendation (not implemented, still valid) says and does;
 * its validity and creation time stay.
 */
export async function updatePendingRecommendation(
  db: Db,
  analysisId: number,
  r: Omit<NewRecommendation, 'analysisId' | 'validUntil'>,
  now: number,
): Promise<void> {
  await db
    .updateTable('recommendations')
    .set(recommendationText(r))
    .where('analysis_id', '=', analysisId)
    .where('is_implemented', '=', 0)
    .where('resolved_at', 'is', null)
    .where('valid_until', '>', now)
    .execute();
}

/**
 * Closes a finding's pending recommendation (not implemented, not closed, still valid): an analysis
 * run found its condition gone. Implemented and expired ones keep their state.
 */
export async function resolvePendingRecommendation(db: Db, analysisId: number, now: number): Promise<void> {
  await db
    .updateTable('recommendations')
    .set({ resolved_at: now, resolution: 'automatic' })
    .where('analysis_id', '=', analysisId)
    .where('is_implemented', '=', 0)
    .where('resolved_at', 'is', null)
    .where('valid_until', '>', now)
    .execute();
}

/** The columns of what a recommendation says and does: written when it is made, and rewritten each run. */
function recommendationText(r: Omit<NewRecommendation, 'analysisId' | 'validUntil'>) {
  return {
    priority: r.priority,
    category: r.category,
    title: r.title,
    description: r.description,
    reasoning: r.reasoning,
    estimated_impact: r.estimatedImpact,
    implementation_notes: r.implementationNotes,
    action: JSON.stringify(r.action),
    action_label: r.actionLabel,
  };
}

/** A recommendation to store: what it says and does, the finding it came from, until when it stands. */
export type NewRecommendation = Omit<
  Recommendation,
  'id' | 'createdAt' | 'validUntil' | 'isImplemented' | 'analysisId' | 'resolvedAt' | 'resolution'
> & {
  analysisId: number | null;
  validUntil: number;
};

export async function insertRecommendation(db: Db, r: NewRecommendation, now: number): Promise<void> {
  await db
    .insertInto('recommendations')
    .values({
      analysis_id: r.analysisId,
      ...recommendationText(r),
      created_at: now,
      valid_until: r.validUntil,
      is_implemented: 0,
      implemented_at: null,
      resolved_at: null,
      resolution: null,
    })
    .execute();
}

/** Standing ones (unimplemented, not closed, still valid) first, then newest; at most `limit`. */
export async function listRecommendations(db: Db, now: number, limit: number): Promise<Recommendation[]> {
  const rows = await db
    .selectFrom('recommendations')
    .selectAll()
    .orderBy(
      sql`case when is_implemented = 0 and resolved_at is null and valid_until > ${now} then 0 else 1 end`,
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(recommendationRowToRecommendation);
}

export function findRecommendationById(db: Db, id: number): Promise<RecommendationRow | undefined> {
  return db.selectFrom('recommendations').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Marks an unimplemented, still valid recommendation implemented: the guard that lets one Implement
 * act. False when it was implemented, closed by a run or expired already.
 */
export async function claimRecommendation(db: Db, id: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('recommendations')
    .set({ is_implemented: 1, implemented_at: now })
    .where('id', '=', id)
    .where('is_implemented', '=', 0)
    .where('resolved_at', 'is', null)
    .where('valid_until', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Gives a claim back (its action failed): the recommendation can be implemented again. */
export async function unclaimRecommendation(db: Db, id: number): Promise<void> {
  await db
    .updateTable('recommendations')
    .set({ is_implemented: 0, implemented_at: null })
    .where('id', '=', id)
    .execute();
}

export async function updateActionLabel(db: Db, id: number, actionLabel: string): Promise<void> {
  await db.updateTable('recommendations').set({ action_label: actionLabel }).where('id', '=', id).execute();
}
