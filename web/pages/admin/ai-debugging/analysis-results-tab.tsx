import { CheckCircle2, LoaderCircle } from 'lucide-react';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import type { AnalysisResult } from '../../../../common/ai-health.ts';
import { formatDate } from '../../../../common/format.ts';
import type { ListState } from '../shared/list-state.tsx';
import { useResolveFinding } from './ai-debugging-mutations.ts';
import { ResolutionNote, SettledBadge, SeverityBadge } from './finding-badges.tsx';
import { OpenItemsList } from './open-items-list.tsx';

/** Spec 2.10: the Analysis Results tab's empty text. */
export const NO_FINDINGS = 'No critical issues detected';

/** The Analysis Results tab: the detectors' findings, unresolved first, each resolvable once. */
export function AnalysisResultsTab({ findings }: { findings: ListState<AnalysisResult> }) {
  return (
    <OpenItemsList
      state={findings}
      label="Analysis results"
      loading="Loading analysis results…"
      empty={NO_FINDINGS}
      isOpen={(finding) => finding.isResolved === 0}
    >
      {(finding) => <FindingCard finding={finding} />}
    </OpenItemsList>
  );
}

function FindingCard({ finding }: { finding: AnalysisResult }) {
  const resolve = useResolveFinding();
  return (
    <Card role="article" aria-label={finding.title}>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <SeverityBadge severity={finding.severity} />
            <CardTitle className="text-base">{finding.title}</CardTitle>
          </div>
          <CardDescription className="font-mono text-xs">{finding.analysisType}</CardDescription>
        </div>
        {finding.isResolved === 0 ? (
          <Button
            size="sm"
            variant="outline"
            disabled={resolve.isPending}
            onClick={() => resolve.mutate(finding)}
          >
            {resolve.isPending ? <LoaderCircle className="animate-spin" /> : <CheckCircle2 />}
            Resolve
          </Button>
        ) : (
          <SettledBadge>Resolved</SettledBadge>
        )}
      </CardHeader>
      <CardContent className="grid gap-2 text-sm">
        <p>{finding.description}</p>
        <p>
          <span className="font-medium">Suggested action: </span>
          {finding.suggestedAction}
        </p>
        <p className="text-xs text-muted-foreground">
          {seenText(finding.frequency)} · First seen {formatDate(finding.createdAt)} · Last seen{' '}
          {formatDate(finding.lastSeenAt)}
          {finding.resolvedAt !== null && ' · '}
          <ResolutionNote item={finding} />
        </p>
      </CardContent>
    </Card>
  );
}

/** How often the cause recurred while the finding was open: 'Seen once', 'Seen 14 times'. */
function seenText(frequency: number): string {
  return frequency === 1 ? 'Seen once' : `Seen ${frequency.toLocaleString('en-US')} times`;
}
