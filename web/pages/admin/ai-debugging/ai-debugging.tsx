import { useQuery } from '@tanstack/react-query';
import { formatDistance } from 'date-fns';
import { LoaderCircle, RefreshCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.tsx';
import {
  formatAnalysisDuration,
  type HealthReport,
  isRecommendationOpen,
} from '../../../../common/ai-health.ts';
import { formatDate } from '../../../../common/format.ts';
import { AdminPageHeader } from '../shared/admin-page-header.tsx';
import { errorText } from '../shared/error-text.ts';
import type { ListState } from '../shared/list-state.tsx';
import { useGenerateReport } from './ai-debugging-mutations.ts';
import {
  analysisResultsQuery,
  HEALTH_LOAD_FAILURE,
  healthReportQuery,
  recommendationsQuery,
} from './ai-debugging-queries.ts';
import { AnalysisResultsTab } from './analysis-results-tab.tsx';
import { FleetHealthCard, HealthCards, ScoreBreakdown } from './health-cards.tsx';
import { RecommendationsTab } from './recommendations-tab.tsx';
import { ReportSummaryView } from './report-summary.tsx';

/** How often the report's age ('5 minutes ago') is worked out again. */
const AGE_REFRESH_MS = 30_000;

/** A query's list as the tabs take it. */
function listState<T>(query: { data?: readonly T[]; error: unknown }): ListState<T> {
  return { data: query.data, error: query.error ? errorText(query.error) : null };
}

/**
 * /admin/ai-debugging (spec 2.10): the latest health report (four cards, the score's parts, the
 * fleet, the model's summary), Generate Report, and the tabs of findings and recommendations.
 * Polled every 5 min (report), 2 min (findings) and 10 min (recommendations).
 */
export default function AiDebuggingPage() {
  const health = useQuery(healthReportQuery());
  const findings = useQuery(analysisResultsQuery());
  const recommendations = useQuery(recommendationsQuery());
  const generate = useGenerateReport();
  const report = health.data;
  const generateButton = (
    <GenerateReportButton pending={generate.isPending} onGenerate={() => generate.mutate()} />
  );

  return (
    <div className="flex min-w-0 flex-col gap-6">
      <AdminPageHeader
        title="AI System Debugging"
        description="A health report measured from the running system, findings from its own data, and what to do about them."
      >
        <div className="flex flex-col gap-2 sm:items-end">
          {report && <ReportTiming report={report} />}
          {/* Before the first report the offer sits in the page, not twice. */}
          {report !== null && generateButton}
        </div>
      </AdminPageHeader>

      {health.error && report === undefined ? (
        <Alert variant="destructive">
          <AlertTitle>Health report unavailable</AlertTitle>
          <AlertDescription>{HEALTH_LOAD_FAILURE}</AlertDescription>
        </Alert>
      ) : report === undefined ? (
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-busy="true">
          {Array.from({ length: 4 }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders
            <Skeleton key={i} className="h-40" />
          ))}
        </div>
      ) : report === null ? (
        <Card>
          <CardHeader>
            <CardTitle className="text-lg">No health report yet</CardTitle>
            <CardDescription>
              Generate Report measures the database, request timings, memory and CPU, the last hour's threats
              and the fleet, and runs the detectors over the system's data.
            </CardDescription>
          </CardHeader>
          <CardContent>{generateButton}</CardContent>
        </Card>
      ) : (
        <>
          <HealthCards report={report} />
          <ReportSummaryView summary={report.summary} />
          <section className="grid gap-4 lg:grid-cols-2">
            <ScoreBreakdown components={report.components} />
            <FleetHealthCard fleet={report.fleetHealth} generatedAt={report.generatedAt} />
          </section>
        </>
      )}

      <Tabs defaultValue="analysis">
        <TabsList>
          <TabsTrigger value="analysis">
            Analysis Results
            <OpenCount items={findings.data} isOpen={(f) => f.isResolved === 0} />
          </TabsTrigger>
          <TabsTrigger value="recommendations">
            AI Recommendations
            <OpenCount items={recommendations.data} isOpen={isRecommendationOpen} />
          </TabsTrigger>
        </TabsList>
        <TabsContent value="analysis">
          <AnalysisResultsTab findings={listState(findings)} />
        </TabsContent>
        <TabsContent value="recommendations">
          <RecommendationsTab recommendations={listState(recommendations)} />
        </TabsContent>
      </Tabs>
    </div>
  );
}

/** Generate Report; spins while the server works and simply stops when it fails (spec section 7). */
function GenerateReportButton({ pending, onGenerate }: { pending: boolean; onGenerate: () => void }) {
  return (
    <Button onClick={onGenerate} disabled={pending} aria-busy={pending}>
      {pending ? <LoaderCircle className="animate-spin" data-testid="generate-spinner" /> : <RefreshCw />}
      Generate Report
    </Button>
  );
}

/** When the shown report was made, how long ago that is, and how long the analysis took. */
function ReportTiming({ report }: { report: HealthReport }) {
  // Never later than now: a report made since the last tick reads 'less than a minute ago', not 'in …'.
  const now = Math.max(useNow(AGE_REFRESH_MS), Date.parse(report.generatedAt));
  return (
    <dl className="grid gap-0.5 text-sm text-muted-foreground sm:whitespace-nowrap sm:text-right">
      <div>
        <dt className="inline">Last updated: </dt>
        <dd className="inline text-foreground">
          {formatDate(report.generatedAt)} (
          {formatDistance(new Date(report.generatedAt), now, { addSuffix: true })})
        </dd>
      </div>
      <div>
        <dt className="inline">Analysis duration: </dt>
        <dd className="inline text-foreground">{formatAnalysisDuration(report.analysisTime)}</dd>
      </div>
    </dl>
  );
}

/** The current time, renewed every `intervalMs`, so relative times shown stay true. */
function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** How many items in a tab are still open, beside the tab's name. */
function OpenCount<T>({ items, isOpen }: { items: readonly T[] | undefined; isOpen: (item: T) => boolean }) {
  const open = items?.filter(isOpen).length ?? 0;
  if (open === 0) return null;
  // The space keeps the tab's accessible name readable: 'Analysis Results 2', not 'Analysis Results2'.
  return (
    <>
      {' '}
      <Badge variant="secondary" className="ml-2" title={`${open} open`}>
        {open}
      </Badge>
    </>
  );
}
