import type { ConfigurationChange } from '../../../../common/configuration.ts';
import { formatDate } from '../../../../common/format.ts';
import { DeployStateBadge } from './deploy-state-badge.tsx';
import { progressOfChange } from './push-progress.ts';

/**
 * Where the newest push stands, beside Apply Changes: how many bots applied it, refused it, did not
 * answer, or still owe an answer. It moves with the acknowledgements (the history refreshes on
 * each), and stays after the toast has gone.
 */
export function LatestPush({ change }: { change: ConfigurationChange | undefined }) {
  if (!change) return null;
  const { applied, refused, unanswered } = progressOfChange(change);
  const waiting = change.counts.pending;
  return (
    <section
      aria-label="Latest push"
      className="flex flex-wrap items-center gap-2 rounded-md border px-3 py-2 text-sm"
    >
      <span className="text-muted-foreground">{`Latest push, ${formatDate(change.createdAt)}:`}</span>
      <DeployStateBadge state="applied">{`${applied} applied`}</DeployStateBadge>
      {refused > 0 && <DeployStateBadge state="failed">{`${refused} refused`}</DeployStateBadge>}
      {unanswered > 0 && <DeployStateBadge state="failed">{`${unanswered} no answer`}</DeployStateBadge>}
      {waiting > 0 && <DeployStateBadge state="pending">{`${waiting} waiting`}</DeployStateBadge>}
      <span className="text-muted-foreground">{`of ${change.targets.length}`}</span>
    </section>
  );
}
