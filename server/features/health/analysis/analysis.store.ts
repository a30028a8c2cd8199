import { type Selectable, sql } from 'kysely';
import type { AnalysisResult, AnalysisType, Resolution } from '../../../../common/ai-health.ts';
import type { Db } from '../../../db/index.ts';
import type { AnalysisFindingsTable } from './analysis.table.ts';
import type { FindingCandidate, FindingEvidence } from './detectors/detector.ts';

/*
 * The analysis's watermark (how far the audit log was read) and its findings, with the retention of
 * both findings and recommendations; what the recommendations say is in recommendations.store.ts.
 */

export type FindingRow = Selectable<AnalysisFindingsTable>;

const iso = (ms: number | string) => new Date(Number(ms)).toISOString();

/** The unique key of an open finding: one open row per analysis type and subject. */
const openKeyOf = (type: AnalysisType, subject: string) => `${type} ${subject}`;

export function findingRowToAnalysisResult(row: FindingRow): AnalysisResult {
  return {
    id: String(row.id),
    severity: row.severity,
    analysisType: row.analysis_type,
    subject: row.subject,
    title: row.title,
    description: row.description,
    suggestedAction: row.suggested_action,
    frequency: Number(row.frequency),
    createdAt: iso(row.created_at),
    lastSeenAt: iso(row.last_seen_at),
    isResolved: Number(row.is_resolved) === 1 ? 1 : 0,
    resolvedAt: row.resolved_at === null ? null : iso(row.resolved_at),
    resolution: row.resolution,
  };
}

export function evidenceOf(row: FindingRow): FindingEvidence {
  return JSON.parse(row.evidence) as FindingEvidence;
}

/* ---------- the watermark ---------- */

export async function findWatermark(db: Db): Promise<number | null> {
  const row = await db
    .selectFrom('analysis_state')
    .select('watermark')
    .where('id', '=', 1)
    .executeTakeFirst();
  return row?.watermark == null ? null : Number(row.watermark);
}

/**
 * Moves the watermark from `previous` to `to` if nobody moved it meanwhile: the run that succeeds
 * owns the window (and, on PostgreSQL, holds the row until it commits, so runs take turns).
 */
export async function advanceWatermark(db: Db, previous: number | null, to: number): Promise<boolean> {
  const result = await db
    .updateTable('analysis_state')
    .set({ watermark: to })
    .where('id', '=', 1)
    .where('watermark', previous === null ? 'is' : '=', previous)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/* ---------- findings ---------- */

const severityRank = (column: string) =>
  sql<number>`case ${sql.ref(column)} when 'CRITICAL' then 3 when 'ERROR' then 2 when 'WARNING' then 1 else 0 end`;

/**
 * Opens a finding, or adds to the open one of the same type and subject: its frequency grows by
 * `occurrences`, its last-seen time and texts follow the new evidence, and its severity only rises.
 */
export async function upsertOpenFinding(
  db: Db,
  finding: FindingCandidate,
  occurrences: number,
  now: number,
): Promise<void> {
  await db
    .insertInto('analysis_findings')
    .values({
      analysis_type: finding.analysisType,
      subject: finding.subject,
      severity: finding.severity,
      title: finding.title,
      description: finding.description,
      suggested_action: finding.suggestedAction,
      frequency: occurrences,
      evidence: JSON.stringify(finding.evidence),
      created_at: now,
      last_seen_at: finding.lastSeenAt,
      is_resolved: 0,
      resolved_at: null,
      resolution: null,
      open_key: openKeyOf(finding.analysisType, finding.subject),
    })
    .onConflict((oc) =>
      oc.column('open_key').doUpdateSet((eb) => ({
        frequency: sql<number>`analysis_findings.frequency + excluded.frequency`,
        last_seen_at: sql<number>`case when excluded.last_seen_at > analysis_findings.last_seen_at then excluded.last_seen_at else analysis_findings.last_seen_at end`,
        severity: sql`case when ${severityRank('excluded.severity')} > ${severityRank('analysis_findings.severity')} then excluded.severity else analysis_findings.severity end`,
        title: eb.ref('excluded.title'),
        description: eb.ref('excluded.description'),
        suggested_action: eb.ref('excluded.suggested_action'),
        evidence: eb.ref('excluded.evidence'),
      })),
    )
    .execute();
}

/** When the open finding of this type and subject was last seen, or null with none open. */
export async function findOpenFindingLastSeen(
  db: Db,
  type: AnalysisType,
  subject: string,
): Promise<number | null> {
  const row = await db
    .selectFrom('analysis_findings')
    .select('last_seen_at')
    .where('open_key', '=', openKeyOf(type, subject))
    .executeTakeFirst();
  return row ? Number(row.last_seen_at) : null;
}

/** Unresolved first, then newest; at most `limit`. */
export async function listFindings(db: Db, limit: number): Promise<AnalysisResult[]> {
  const rows = await db
    .selectFrom('analysis_findings')
    .selectAll()
    .orderBy('is_resolved')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(findingRowToAnalysisResult);
}

export async function listOpenFindings(db: Db): Promise<AnalysisResult[]> {
  const rows = await db
    .selectFrom('analysis_findings')
    .selectAll()
    .where('is_resolved', '=', 0)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(findingRowToAnalysisResult);
}

export function findFindingById(db: Db, id: number): Promise<FindingRow | undefined> {
  return db.selectFrom('analysis_findings').selectAll().where('id', '=', id).executeTakeFirst();
}

/** What an analysis run needs to judge whether an open finding still holds. */
export type OpenFindingKey = Pick<FindingRow, 'id' | 'analysis_type' | 'subject' | 'last_seen_at'>;

export async function listOpenFindingKeys(db: Db): Promise<OpenFindingKey[]> {
  const rows = await db
    .selectFrom('analysis_findings')
    .select(['id', 'analysis_type', 'subject', 'last_seen_at'])
    .where('is_resolved', '=', 0)
    .execute();
  return rows.map((row) => ({ ...row, last_seen_at: Number(row.last_seen_at) }));
}

/**
 * Resolves an open finding (its type and subject are free for a new one), by the administrator or
 * by an analysis run that found its condition gone; false when it was not open.
 */
export async function resolveFindingById(
  db: Db,
  id: number,
  now: number,
  resolution: Resolution = 'operator',
): Promise<boolean> {
  const result = await db
    .updateTable('analysis_findings')
    .set({ is_resolved: 1, resolved_at: now, resolution, open_key: null })
    .where('id', '=', id)
    .where('is_resolved', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Deletes resolved findings (with their recommendations) and implemented or expired recommendations
 * older than `before`; returns the rows deleted.
 */
export async function deleteAnalysisBefore(db: Db, before: number): Promise<number> {
  const recommendations = await db
    .deleteFrom('recommendations')
    .where((eb) =>
      eb.or([
        eb.and([eb('is_implemented', '=', 1), eb('implemented_at', '<', before)]),
        eb.and([eb('is_implemented', '=', 0), eb('valid_until', '<', before)]),
      ]),
    )
    .executeTakeFirst();
  const findings = await db
    .deleteFrom('analysis_findings')
    .where('is_resolved', '=', 1)
    .where('resolved_at', '<', before)
    .executeTakeFirst();
  return Number(recommendations.numDeletedRows) + Number(findings.numDeletedRows);
}
