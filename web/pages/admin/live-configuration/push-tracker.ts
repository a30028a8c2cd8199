import type { QueryClient } from '@tanstack/react-query';
import { toast, updateToast } from '@/lib/toast.ts';
import type { ChangeResult, ConfigurationChange } from '../../../../common/configuration.ts';
import { isFinal, type PushOutcome, type PushTexts, progressOfChange, pushToast } from './push-progress.ts';

type Progress = Omit<PushOutcome, 'targeted' | 'sent'>;

interface TrackedPush {
  texts: PushTexts;
  toastId: string;
  outcome: PushOutcome;
}

/** How long a push's final toast stays: longer when it names failures, so they can be read. */
const FINAL_TOAST_MS = { default: 5000, destructive: 10_000 } as const;
/** Pushes, and progress of changes this tab has no answer for yet (or never will): the newest few. */
const KEPT = 20;

const answered = (p: Progress) => p.applied + p.refused + p.unanswered;

/**
 * The pushes this tab made, each with its toast: shown at once from the call's answer, then moved
 * by the socket's progress events and by the change records as they are fetched, until every bot it
 * was sent to has answered or run out of time (then the records name the failed bots). Progress can overtake the answer (a bot on the same
 * machine answers within milliseconds), so it is kept until the answer comes.
 */
export class PushTracker {
  private readonly pushes = new Map<string, TrackedPush>();
  private readonly early = new Map<string, Progress>();

  /** A push was answered: its toast says it was sent, or already where it stands. */
  track(result: ChangeResult, texts: PushTexts): void {
    const progress = this.early.get(result.changeId);
    this.early.delete(result.changeId);
    const outcome: PushOutcome = {
      targeted: result.successful,
      sent: result.sent,
      applied: 0,
      refused: 0,
      unanswered: 0,
      ...progress,
    };
    const { id } = toast(toastOf(texts, outcome));
    remember(this.pushes, result.changeId, { texts, toastId: id, outcome });
  }

  /** Bots answered (or ran out of time) on change `changeId`; figures older than those shown are ignored. */
  progress(changeId: string, progress: Progress): void {
    const push = this.pushes.get(changeId);
    if (!push) {
      const known = this.early.get(changeId);
      if (!known || answered(progress) >= answered(known)) remember(this.early, changeId, progress);
      return;
    }
    if (answered(progress) < answered(push.outcome)) return;
    const wasFinal = isFinal(push.outcome);
    push.outcome = { ...push.outcome, ...progress };
    const shown = toastOf(push.texts, push.outcome);
    if (updateToast(push.toastId, shown) || wasFinal || !isFinal(push.outcome)) return;
    // A final state that names failures is shown again if its toast was closed or replaced meanwhile.
    if (shown.variant === 'destructive') push.toastId = toast(shown).id;
  }

  /** Change records as fetched: they settle this tab's pushes should a progress event be missed. */
  records(changes: readonly ConfigurationChange[]): void {
    for (const change of changes) {
      if (this.pushes.has(change.id)) this.progress(change.id, progressOfChange(change));
    }
  }
}

/** The toast for where a push stands: it stays open until the push is final. */
function toastOf(texts: PushTexts, outcome: PushOutcome) {
  const shown = pushToast(texts, outcome);
  return {
    ...shown,
    duration: isFinal(outcome) ? FINAL_TOAST_MS[shown.variant] : Number.POSITIVE_INFINITY,
  };
}

/** Sets `key` as the newest entry, dropping the oldest beyond KEPT. */
function remember<T>(map: Map<string, T>, key: string, value: T): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > KEPT) map.delete(map.keys().next().value as string);
}

const trackers = new WeakMap<QueryClient, PushTracker>();

/** The tab's push tracker (one per query client, so each test's app starts with none). */
export function pushTrackerOf(queryClient: QueryClient): PushTracker {
  let tracker = trackers.get(queryClient);
  if (!tracker) {
    tracker = new PushTracker();
    trackers.set(queryClient, tracker);
  }
  return tracker;
}
