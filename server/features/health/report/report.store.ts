import type { HealthReport } from '../../../../common/ai-health.ts';
import type { Db } from '../../../db/index.ts';

/** Reports kept: the screen shows the newest; older ones are history enough. */
export const REPORTS_KEPT = 100;

/** Stores a report, then deletes all but the newest REPORTS_KEPT. */
export async function insertHealthReport(db: Db, report: HealthReport, generatedAt: number): Promise<void> {
  await db
    .insertInto('health_reports')
    .values({
      report_id: report.id,
      generated_at: generatedAt,
      health_score: report.healthScore,
      system_status: report.systemStatus,
      report: JSON.stringify(report),
    })
    .execute();
  await db
    .deleteFrom('health_reports')
    .where('id', 'not in', (eb) =>
      eb.selectFrom('health_reports').select('id').orderBy('id', 'desc').limit(REPORTS_KEPT),
    )
    .execute();
}

/** The newest stored report, or null before the first. */
export async function findLatestHealthReport(db: Db): Promise<HealthReport | null> {
  const row = await db
    .selectFrom('health_reports')
    .select('report')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  const report = JSON.parse(row.report) as HealthReport;
  // Reports stored before the fleet's state was measured carry none.
  return {
    ...report,
    fleetHealth: { ...report.fleetHealth, condition: report.fleetHealth.condition ?? null },
  };
}

/** Audit events of `eventTypes` that failed (success 0) since `since`. */
export async function countFailedAuditEvents(
  db: Db,
  eventTypes: readonly string[],
  since: number,
): Promise<number> {
  const row = await db
    .selectFrom('audit_logs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('event_type', 'in', eventTypes)
    .where('success', '=', 0)
    .where('timestamp', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
