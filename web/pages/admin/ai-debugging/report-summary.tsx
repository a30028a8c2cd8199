import { Bot, Info, TriangleAlert } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import type { ReportSummary } from '../../../../common/ai-health.ts';

/**
 * The language model's written summary of the report, or why there is none: it failed (the
 * rule-based report stands) or no model is configured (the analysis is rule-based).
 */
export function ReportSummaryView({ summary }: { summary: ReportSummary }) {
  switch (summary.status) {
    case 'ok':
      return (
        <Card role="group" aria-label="AI Summary">
          <CardHeader className="flex-row flex-wrap items-center justify-between gap-2">
            <CardTitle className="flex items-center gap-2 text-lg">
              <Bot className="h-5 w-5 text-sky-400" />
              AI Summary
            </CardTitle>
            {summary.model && <Badge variant="outline">Written by {summary.model}</Badge>}
          </CardHeader>
          <CardContent>
            <p className="whitespace-pre-line text-sm leading-relaxed">{summary.text}</p>
          </CardContent>
        </Card>
      );
    case 'failed':
      return (
        <Alert>
          <TriangleAlert className="h-4 w-4 text-amber-300" />
          <AlertTitle>The AI summary failed</AlertTitle>
          <AlertDescription>
            The language model gave no summary{summary.error ? ` (${summary.error})` : ''}. The rule-based
            report above stands.
          </AlertDescription>
        </Alert>
      );
    case 'disabled':
      return (
        <Alert>
          <Info className="h-4 w-4" />
          <AlertTitle>Rule-based analysis</AlertTitle>
          <AlertDescription>
            No language model is configured, so the report and findings come from the built-in rules. Set
            AI_BASE_URL and AI_MODEL (an OpenAI-compatible endpoint) to add a written summary.
          </AlertDescription>
        </Alert>
      );
  }
}
