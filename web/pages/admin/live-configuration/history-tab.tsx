import { ChevronDown, ChevronRight, LoaderCircle, Undo2 } from 'lucide-react';
import { Fragment, useState } from 'react';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { cn } from '@/lib/cn.ts';
import { plural } from '@/lib/plural.ts';
import {
  type BotParameterName,
  type BotParameters,
  type ChangeKind,
  type ChangeTarget,
  type ConfigurationChange,
  TARGET_STATES,
} from '../../../../common/configuration.ts';
import { formatDate } from '../../../../common/format.ts';
import { type ListState, ListStateView } from '../shared/list-state.tsx';
import { DeployStateBadge } from './deploy-state-badge.tsx';
import { useRollbackChange } from './live-configuration-mutations.ts';
import { PARAMETER_LABELS } from './parameter-form.ts';
import { ReasonDialog } from './reason-dialog.tsx';

export const KIND_LABELS: Record<ChangeKind, string> = {
  bulk_update: 'Bulk update',
  profile: 'Profile applied',
  rollback: 'Rollback',
  emergency_stop: 'Emergency stop',
  emergency_resume: 'Emergency resume',
};

function parameterValue(value: BotParameters[BotParameterName] | undefined): string {
  if (value === undefined) return '—';
  if (typeof value === 'boolean') return value ? 'On' : 'Off';
  return value.toLocaleString('en-US');
}

/**
 * What a change did to one bot's values, as 'Label: before → after' for each value that moved, and
 * how many values it sent unchanged (a bulk update sends every parameter; most stay as they were).
 */
export function fieldChanges(target: ChangeTarget): { changed: string[]; unchanged: number } {
  const names = Object.keys(target.after) as BotParameterName[];
  const moved = names.filter((name) => target.before[name] !== target.after[name]);
  return {
    changed: moved.map(
      (name) =>
        `${PARAMETER_LABELS[name]}: ${parameterValue(target.before[name])} → ${parameterValue(target.after[name])}`,
    ),
    unchanged: names.length - moved.length,
  };
}

/**
 * The Changes cell: the values that moved, then how many stayed, then the version it made, flowing
 * on as few lines as the column allows (70 bots make 70 rows). Each part stays whole on its line.
 */
function TargetChanges({ target }: { target: ChangeTarget }) {
  const { changed, unchanged } = fieldChanges(target);
  const parts = changed.map((line) => ({ text: line, muted: false }));
  if (unchanged > 0) {
    parts.push({
      text: changed.length === 0 ? `No value changed (${unchanged} sent)` : `${unchanged} more unchanged`,
      muted: true,
    });
  }
  if (target.version !== null) parts.push({ text: `v${target.version}`, muted: true });
  return (
    <p>
      {parts.map((part, index) => (
        <Fragment key={part.text}>
          {index > 0 && <span className="text-muted-foreground"> · </span>}
          <span className={cn('whitespace-nowrap', part.muted && 'text-muted-foreground')}>{part.text}</span>
        </Fragment>
      ))}
    </p>
  );
}

/** One change's per-bot outcomes: what changed, where it stands, the bot's error and answer time. */
function ChangeTargets({ change }: { change: ConfigurationChange }) {
  if (change.targets.length === 0) {
    return <p className="px-4 pb-4 text-sm text-muted-foreground">No bot was targeted.</p>;
  }
  return (
    // Its own scroll box, under a header that stays: a push to 70 bots is 70 rows.
    <div className="px-2 pb-2">
      <Table aria-label={`Bots of change ${change.id}`} containerClassName="max-h-[28rem]">
        <TableHeader className="sticky top-0 z-10 bg-card">
          <TableRow>
            <TableHead className="h-10 px-3">Bot</TableHead>
            <TableHead className="h-10 px-3">Changes</TableHead>
            <TableHead className="h-10 px-3">State</TableHead>
            <TableHead className="h-10 px-3">Error</TableHead>
            <TableHead className="h-10 px-3 text-right">Response</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {change.targets.map((target) => (
            <TableRow key={target.botId}>
              <TableCell className="whitespace-nowrap px-3 py-2 font-mono">{target.botId}</TableCell>
              <TableCell className="min-w-48 px-3 py-2 text-xs">
                <TargetChanges target={target} />
              </TableCell>
              <TableCell className="px-3 py-2">
                <DeployStateBadge state={target.state} />
              </TableCell>
              <TableCell className="px-3 py-2 text-xs text-red-400 wrap-anywhere">
                {target.error ?? ''}
              </TableCell>
              <TableCell className="whitespace-nowrap px-3 py-2 text-right text-xs tabular-nums">
                {target.responseTimeMs === null ? '—' : `${target.responseTimeMs} ms`}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

function ChangeRecord({ change }: { change: ConfigurationChange }) {
  const [open, setOpen] = useState(false);
  const rollback = useRollbackChange();
  const rollingBack = rollback.isPending && rollback.variables?.changeId === change.id;
  const Chevron = open ? ChevronDown : ChevronRight;
  return (
    // min-w-0: a wide table of bots scrolls in its box instead of widening the list past the window.
    <li className="min-w-0 rounded-lg border" data-testid={`change-${change.id}`}>
      <div className="flex flex-wrap items-start gap-3 p-3 sm:p-4">
        <Button
          variant="ghost"
          size="icon"
          className="h-8 w-8 shrink-0"
          aria-expanded={open}
          aria-label={`${open ? 'Hide' : 'Show'} bots of ${KIND_LABELS[change.kind].toLowerCase()} at ${formatDate(change.createdAt)}`}
          onClick={() => setOpen((o) => !o)}
        >
          <Chevron />
        </Button>
        <div className="grid min-w-0 flex-1 gap-1">
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-semibold">{KIND_LABELS[change.kind]}</span>
            {change.profileName && <Badge variant="outline">{change.profileName}</Badge>}
            {change.isEmergency && <Badge variant="destructive">Emergency</Badge>}
            <span className="text-xs text-muted-foreground">{formatDate(change.createdAt)}</span>
          </div>
          <p className="text-sm">
            {change.reason || <span className="text-muted-foreground">No reason given</span>}
          </p>
          <p className="text-xs text-muted-foreground">
            {`By ${change.actor} · ${plural(change.targets.length, 'bot', 'bots')}`}
            {change.rollbackOf && ' · rolls back an earlier change'}
          </p>
          <div className="flex flex-wrap gap-1.5">
            {TARGET_STATES.map((state) => (
              <DeployStateBadge key={state} state={state} className="tabular-nums">
                {`${change.counts[state]} ${state}`}
              </DeployStateBadge>
            ))}
          </div>
        </div>
        {change.canRollback && (
          <ReasonDialog
            trigger={
              <Button variant="outline" size="sm" disabled={rollingBack}>
                {rollingBack ? <LoaderCircle className="animate-spin" /> : <Undo2 />}
                Roll back
              </Button>
            }
            title="Roll back this change?"
            description={
              change.targets.length === 1
                ? 'The bot it changed gets its earlier values back, as a new change.'
                : `The ${change.targets.length} bots it changed get their earlier values back, as a new change.`
            }
            confirmLabel="Roll Back"
            reasonRequired
            placeholder="e.g. Hop failures went up after this change"
            onConfirm={(reason) => rollback.mutate({ changeId: change.id, reason })}
          />
        )}
      </div>
      {open && <ChangeTargets change={change} />}
    </li>
  );
}

/** The History tab: the change records, newest first, each with its bots and Roll back. */
export function HistoryTab({ changes }: { changes: ListState<ConfigurationChange> }) {
  return (
    <ListStateView state={changes} loading="Loading history..." empty="No configuration changes yet">
      {(items) => (
        <ol className="grid gap-3" aria-label="Configuration changes">
          {items.map((change) => (
            <ChangeRecord key={change.id} change={change} />
          ))}
        </ol>
      )}
    </ListStateView>
  );
}
