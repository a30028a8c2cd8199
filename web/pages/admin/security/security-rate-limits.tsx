import { Gauge } from 'lucide-react';
import { Badge } from '@/components/ui/badge.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Subheading } from '@/components/ui/heading-level.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { type RateLimitStatus, TOP_LIMITED_SHOWN } from '../../../../common/security.ts';

/** Active over total limits as a whole percent; 0 while nothing is being counted. */
export function rateLimitUtilisation({ activeLimits, totalLimits }: RateLimitStatus): number {
  return totalLimits === 0 ? 0 : Math.round((activeLimits / totalLimits) * 100);
}

/** 'Rate Limiting Status': how many counted callers are refused right now, and who was refused most. */
export function RateLimitPanel({ rateLimits }: { rateLimits: RateLimitStatus }) {
  const percent = rateLimitUtilisation(rateLimits);
  const top = rateLimits.topLimitedIPs.slice(0, TOP_LIMITED_SHOWN);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-lg">
          <Gauge className="h-5 w-5 text-muted-foreground" />
          Rate Limiting Status
        </CardTitle>
        <CardDescription>
          Callers refused right now among those being counted, and the most limited.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6 md:grid-cols-2">
        <div className="grid content-start gap-2">
          <div className="flex items-baseline justify-between gap-2 text-sm">
            <span className="font-medium">Utilisation</span>
            <span className="text-2xl font-bold tabular-nums" data-testid="rate-limit-utilisation">
              {percent}%
            </span>
          </div>
          <Progress value={percent} aria-label="Rate limit utilisation" indicatorClassName="bg-amber-400" />
          <p className="text-xs text-muted-foreground">
            {rateLimits.activeLimits.toLocaleString('en-US')} of{' '}
            {rateLimits.totalLimits.toLocaleString('en-US')} counted callers limited
          </p>
        </div>
        <section aria-label="Top limited IPs" className="grid content-start gap-2">
          <Subheading className="text-sm font-medium">Top Limited IPs</Subheading>
          {top.length === 0 ? (
            <p className="text-sm text-muted-foreground">No rate limit hits in the last 24 hours.</p>
          ) : (
            <ol className="grid gap-1.5">
              {top.map((entry) => (
                <li
                  key={`${entry.limitType}:${entry.identifier}`}
                  className="flex items-center gap-2 rounded-md border px-3 py-2 text-sm"
                >
                  <code className="min-w-0 flex-1 truncate font-mono text-xs" title={entry.identifier}>
                    {entry.identifier}
                  </code>
                  <Badge variant="outline">{entry.limitType}</Badge>
                  <span className="whitespace-nowrap tabular-nums text-red-400">
                    {entry.count.toLocaleString('en-US')} {entry.count === 1 ? 'hit' : 'hits'}
                  </span>
                </li>
              ))}
            </ol>
          )}
        </section>
      </CardContent>
    </Card>
  );
}
