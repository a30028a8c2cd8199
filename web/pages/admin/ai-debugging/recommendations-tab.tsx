import { LoaderCircle, Wrench } from 'lucide-react';
import type { ReactNode } from 'react';
import { ConfirmDialog } from '@/components/confirm-action-button.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '@/components/ui/card.tsx';
import { isRecommendationOpen, type Recommendation } from '../../../../common/ai-health.ts';
import { formatDate } from '../../../../common/format.ts';
import type { ListState } from '../shared/list-state.tsx';
import { useImplementRecommendation } from './ai-debugging-mutations.ts';
import { PriorityBadge, ResolutionNote, SettledBadge } from './finding-badges.tsx';
import { OpenItemsList } from './open-items-list.tsx';

/** Spec 2.10: the AI Recommendations tab's empty text. */
export const NO_RECOMMENDATIONS = 'No active recommendations';

/** The AI Recommendations tab: what to do about the findings, each implementable once. */
export function RecommendationsTab({ recommendations }: { recommendations: ListState<Recommendation> }) {
  return (
    <OpenItemsList
      state={recommendations}
      label="Recommendations"
      loading="Loading recommendations…"
      empty={NO_RECOMMENDATIONS}
      isOpen={isRecommendationOpen}
    >
      {(recommendation) => <RecommendationCard recommendation={recommendation} />}
    </OpenItemsList>
  );
}

function RecommendationCard({ recommendation }: { recommendation: Recommendation }) {
  const expired = Date.parse(recommendation.validUntil) < Date.now();
  return (
    <Card role="article" aria-label={recommendation.title}>
      <CardHeader className="grid gap-1.5">
        <div className="flex flex-wrap items-center gap-2">
          <PriorityBadge priority={recommendation.priority} />
          <Badge variant="secondary">{recommendation.category}</Badge>
          <CardTitle className="text-base">{recommendation.title}</CardTitle>
        </div>
        <CardDescription>{recommendation.description}</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-2 text-sm">
          <Field label="Reasoning">{recommendation.reasoning}</Field>
          <Field label="Estimated impact">{recommendation.estimatedImpact}</Field>
          <Field label="Implementation notes">{recommendation.implementationNotes}</Field>
          <Field label="Valid until">
            {formatDate(recommendation.validUntil)}
            {expired && ' (expired)'} · created {formatDate(recommendation.createdAt)}
          </Field>
        </dl>
      </CardContent>
      <CardFooter className="flex-wrap justify-between gap-3 border-t pt-4">
        <p className="text-sm text-muted-foreground">
          {recommendation.resolution === null ? (
            recommendation.actionLabel
          ) : (
            <ResolutionNote item={recommendation} />
          )}
        </p>
        {isRecommendationOpen(recommendation) ? (
          <ImplementButton recommendation={recommendation} />
        ) : (
          <SettledBadge>{recommendation.isImplemented === 1 ? 'Implemented' : 'Resolved'}</SettledBadge>
        )}
      </CardFooter>
    </Card>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="font-medium">{label}</dt>
      <dd className="text-muted-foreground">{children}</dd>
    </div>
  );
}

/**
 * Implement. When it acts (revokes a key, applies a profile to bots) it asks first, saying what it
 * will do; when it only marks the recommendation done it goes at once.
 */
function ImplementButton({ recommendation }: { recommendation: Recommendation }) {
  const implement = useImplementRecommendation();
  const { action } = recommendation;
  const button = (
    <Button
      size="sm"
      disabled={implement.isPending}
      onClick={action.kind === 'none' ? () => implement.mutate(recommendation) : undefined}
    >
      {implement.isPending ? <LoaderCircle className="animate-spin" /> : <Wrench />}
      Implement
    </Button>
  );
  if (action.kind === 'none') return button;
  return (
    <ConfirmDialog
      trigger={button}
      title="Implement this recommendation?"
      description={recommendation.actionLabel}
      confirmLabel="Implement"
      confirmVariant={action.kind === 'revoke_script_key' ? 'destructive' : 'default'}
      onConfirm={() => implement.mutate(recommendation)}
    />
  );
}
