import { Activity, Database, Gauge, ShieldAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { cn } from '@/lib/cn.ts';
import {
  type HealthReport,
  type ScoreBand,
  type ScoreComponent,
  scoreBand,
} from '../../../../common/ai-health.ts';
import {
  FLEET_STATE_LABELS,
  type FleetStateName,
  fleetHeadline,
} from '../../../../common/fleet-condition.ts';
import { StatCard } from '../shared/stat-card.tsx';
import { BAND_TEXT, BandBadge, CONNECTION_BAND, ScoreValue, STATUS_BAND } from './score-tone.tsx';

/** The fleet's state in the score's colours: a silent fleet is as bad as a dead database. */
const FLEET_STATE_BAND = {
  live: 'good',
  degraded: 'fair',
  stopped: 'fair',
  down: 'poor',
} as const satisfies Record<FleetStateName, ScoreBand>;

/** An instant as the browser's local time of day, '09:12'. */
function localClock(iso: string): string {
  return new Date(iso).toLocaleTimeString('en-US', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
}

/** Milliseconds as the cards show them: one decimal under 10 ms (a local query takes 0.4 ms), else whole. */
function formatMs(ms: number): string {
  return `${ms < 10 ? Number(ms.toFixed(1)) : Math.round(ms)} ms`;
}

/** A percentage with at most one decimal: 42%, 7.5%. */
function formatPercent(value: number): string {
  return `${Number(value.toFixed(1))}%`;
}

const COMPONENT_LABELS: Record<ScoreComponent['name'], string> = {
  database: 'Database',
  performance: 'Performance',
  security: 'Security',
  fleet: 'Fleet',
};

/** A measurement line inside a card. */
function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-3">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="text-right tabular-nums">{children}</dd>
    </div>
  );
}

/** The measurements behind a card's figure. */
function Details({ children }: { children: ReactNode }) {
  return <dl className="mt-3 grid gap-1 text-sm">{children}</dl>;
}

/** Spec 2.10's four cards: Health Score, Database, Security, Performance. */
export function HealthCards({ report }: { report: HealthReport }) {
  const { databaseHealth: db, securityHealth: security, performanceHealth: perf } = report;
  const connectionBand = CONNECTION_BAND[db.connectionStatus];
  return (
    <section aria-label="Health cards" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <StatCard
        title="Health Score"
        icon={Gauge}
        value={Math.round(report.healthScore)}
        tone={BAND_TEXT[scoreBand(report.healthScore)]}
        hint="Out of 100, weighted over database, performance, security and fleet"
      >
        <Details>
          <Detail label="System status">
            <BandBadge band={STATUS_BAND[report.systemStatus]}>{report.systemStatus}</BandBadge>
          </Detail>
        </Details>
      </StatCard>

      <StatCard
        title="Database"
        icon={Database}
        value={formatMs(db.responseTime)}
        tone={BAND_TEXT[connectionBand]}
        hint="Response time of a timed query"
      >
        <Details>
          <Detail label="Connection">
            <BandBadge band={connectionBand}>{db.connectionStatus}</BandBadge>
          </Detail>
        </Details>
      </StatCard>

      <StatCard
        title="Security"
        icon={ShieldAlert}
        value={`${security.vulnerabilityScore}/100`}
        hint="Vulnerability score (higher is worse)"
      >
        <Details>
          <Detail label="Active threats (last hour)">{security.activeThreats}</Detail>
          <div>
            <dt className="text-muted-foreground">Weaknesses</dt>
            <dd>
              {security.weaknesses.length === 0 ? (
                <span className="text-emerald-400">None found in the setup</span>
              ) : (
                <ul className="list-disc pl-5 text-amber-300">
                  {security.weaknesses.map((weakness) => (
                    <li key={weakness}>{weakness}</li>
                  ))}
                </ul>
              )}
            </dd>
          </div>
        </Details>
      </StatCard>

      <StatCard
        title="Performance"
        icon={Activity}
        value={formatMs(perf.averageRequestTime)}
        hint={`Average request time over the last ${perf.requestCount.toLocaleString('en-US')} requests`}
      >
        <Details>
          <Detail label="p50 / p95">
            {formatMs(perf.p50RequestTime)} / {formatMs(perf.p95RequestTime)}
          </Detail>
          <Detail label="Memory">{formatPercent(perf.memoryUsage)}</Detail>
          <Detail label="CPU">{formatPercent(perf.cpuUsage)}</Detail>
        </Details>
      </StatCard>
    </section>
  );
}

/** The score's weighted parts, each in its band's colour, with what lowered it. */
export function ScoreBreakdown({ components }: { components: ScoreComponent[] }) {
  return (
    <Card role="group" aria-label="Score Breakdown">
      <CardHeader>
        <CardTitle className="text-lg">Score Breakdown</CardTitle>
        <CardDescription>Each part's score and its weight in the health score</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-3">
          {components.map((component) => (
            <li key={component.name} aria-label={COMPONENT_LABELS[component.name]} className="grid gap-1">
              <div className="flex items-baseline justify-between gap-3 text-sm">
                <span className="font-medium">{COMPONENT_LABELS[component.name]}</span>
                <span className="text-muted-foreground">
                  <ScoreValue score={component.score} className="text-base" /> · weight{' '}
                  {formatPercent(component.weight * 100)}
                </span>
              </div>
              {component.notes.length > 0 && (
                <ul className="list-disc pl-5 text-xs text-muted-foreground">
                  {component.notes.map((note) => (
                    <li key={note}>{note}</li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

/**
 * The fleet's part of the report: its state when the report was made (with the headline every screen
 * gives it), the bots heard from and in error, failed hops, free pool servers.
 */
export function FleetHealthCard({
  fleet,
  generatedAt,
}: {
  fleet: HealthReport['fleetHealth'];
  generatedAt: string;
}) {
  const { condition } = fleet;
  return (
    <Card role="group" aria-label="Fleet Health">
      <CardHeader>
        <CardTitle className="text-lg">Fleet Health</CardTitle>
        <CardDescription>The scanner bots and the server pool</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {condition && (
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <BandBadge band={FLEET_STATE_BAND[condition.state]}>
              {FLEET_STATE_LABELS[condition.state]}
            </BandBadge>
            <span className={cn(condition.state !== 'live' && BAND_TEXT[FLEET_STATE_BAND[condition.state]])}>
              {fleetHeadline(condition, Date.parse(generatedAt), localClock)}
            </span>
          </div>
        )}
        <dl className="grid gap-2 text-sm">
          {condition && (
            <Detail label="Bots heard from">
              <span
                className={cn(condition.state !== 'live' && condition.state !== 'stopped' && 'text-red-400')}
              >
                {condition.heardBots} of {condition.expectedBots}
              </span>
            </Detail>
          )}
          <Detail label="Bots in error">
            <span className={cn(fleet.errorBots > 0 && 'text-red-400')}>
              {fleet.errorBots} of {fleet.totalBots}
            </span>
          </Detail>
          <Detail label="Hop failure rate (last hour)">
            {fleet.hopFailureRate === null ? 'No hops in the last hour' : formatPercent(fleet.hopFailureRate)}
          </Detail>
          <Detail label="Pool availability">
            {fleet.poolAvailability === null ? 'The pool is empty' : formatPercent(fleet.poolAvailability)}
          </Detail>
        </dl>
      </CardContent>
    </Card>
  );
}
