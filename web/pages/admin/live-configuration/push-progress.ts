import { plural } from '@/lib/plural.ts';
import {
  type ConfigurationChange,
  type ConfigurationProgressPayload,
  NO_ACKNOWLEDGEMENT,
} from '../../../../common/configuration.ts';

/*
 * What a push's toast says as the bots acknowledge it: sent at once, then applied / failed / no
 * answer as the answers come, and a final state once every bot it was sent to has answered or run
 * out of time (the server's acknowledgement deadline).
 */

/** Where a push stands: the answer's figures, then the bots' acknowledgements. */
export interface PushOutcome {
  /** Bots the change targeted. */
  targeted: number;
  /** Of them, the bots online at the push, sent their `config` frame at once. */
  sent: number;
  applied: number;
  /** Bots that answered with a refusal. */
  refused: number;
  /** Bots that did not answer before the deadline. */
  unanswered: number;
  /** The failed bots by name, when known (from the change record). */
  refusedBots?: string[];
  unansweredBots?: string[];
}

/** The toast texts of one kind of push: while it runs, when every bot took it, when some did not. */
export interface PushTexts {
  sending: string;
  success: string;
  /** The description when every targeted bot applied it. */
  successLine: (applied: number) => string;
  incomplete: string;
}

export const BULK_UPDATE_TEXTS: PushTexts = {
  sending: 'Bulk Update Sent',
  // Spec section 8: 'Bulk Update Successful' ('Updated N configurations').
  success: 'Bulk Update Successful',
  successLine: (n) => `Updated ${plural(n, 'configuration', 'configurations')}`,
  incomplete: 'Bulk Update Incomplete',
};

export const profileTexts = (profileName: string): PushTexts => ({
  sending: 'Profile Sent',
  success: 'Profile Applied Successfully',
  successLine: (n) => `${profileName} applied to ${plural(n, 'bot', 'bots')}`,
  incomplete: 'Profile Partly Applied',
});

export const ROLLBACK_TEXTS: PushTexts = {
  sending: 'Rollback Sent',
  success: 'Change Rolled Back',
  successLine: (n) => `Earlier values restored on ${plural(n, 'bot', 'bots')}`,
  incomplete: 'Rollback Incomplete',
};

const settledOf = (o: PushOutcome) => o.applied + o.refused + o.unanswered;

/** Every bot the push was sent to has answered or run out of time (offline bots get it later). */
export const isFinal = (o: PushOutcome) => settledOf(o) >= o.sent;

/** At most this many bot names in a toast; the rest are counted. */
const NAMES_SHOWN = 5;

function names(bots: string[] | undefined): string {
  if (!bots || bots.length === 0) return '';
  const shown = bots.slice(0, NAMES_SHOWN).join(', ');
  return bots.length > NAMES_SHOWN ? ` (${shown} and ${bots.length - NAMES_SHOWN} more)` : ` (${shown})`;
}

/** Bots still to get it: offline at the push, told when they reconnect. */
function offlineLine(o: PushOutcome): string | null {
  const waiting = o.targeted - settledOf(o);
  return waiting > 0
    ? `${plural(waiting, 'offline bot gets it when it reconnects', 'offline bots get it when they reconnect')}.`
    : null;
}

/** The toast for a push where it stands now. */
export function pushToast(
  texts: PushTexts,
  o: PushOutcome,
): { title: string; description: string; variant: 'default' | 'destructive' } {
  const sentTo =
    o.sent === o.targeted
      ? `Sent to ${plural(o.sent, 'bot', 'bots')}`
      : `Sent to ${o.sent} of ${plural(o.targeted, 'bot', 'bots')}`;
  if (!isFinal(o)) {
    const parts = [`${o.applied} applied`];
    if (o.refused > 0) parts.push(`${o.refused} failed`);
    if (o.unanswered > 0) parts.push(`${o.unanswered} no answer`);
    parts.push(`${o.sent - settledOf(o)} waiting`);
    return { title: texts.sending, description: `${sentTo}: ${parts.join(', ')}`, variant: 'default' };
  }
  const offline = offlineLine(o);
  if (o.sent === 0) {
    return { title: texts.sending, description: `No bot is online: ${offline}`, variant: 'default' };
  }
  if (o.refused === 0 && o.unanswered === 0) {
    const line = texts.successLine(o.applied);
    return {
      title: texts.success,
      description: offline ? `${line}. ${offline}` : line,
      variant: 'default',
    };
  }
  const failures = [
    o.refused > 0 ? `${o.refused} refused it${names(o.refusedBots)}` : null,
    o.unanswered > 0 ? `${o.unanswered} did not answer${names(o.unansweredBots)}` : null,
  ].filter(Boolean);
  return {
    title: texts.incomplete,
    description: [
      `${o.applied} of ${plural(o.targeted, 'bot', 'bots')} applied it; ${failures.join(', ')}.`,
      offline,
    ]
      .filter(Boolean)
      .join(' '),
    variant: 'destructive',
  };
}

/** A progress event's figures. */
export function progressOfEvent(p: ConfigurationProgressPayload): Omit<PushOutcome, 'targeted' | 'sent'> {
  return {
    applied: p.counts.applied,
    refused: p.counts.failed - p.unanswered,
    unanswered: p.unanswered,
  };
}

/** A change record's figures, with the failed bots by name. */
export function progressOfChange(change: ConfigurationChange): Omit<PushOutcome, 'targeted' | 'sent'> {
  const failed = change.targets.filter((t) => t.state === 'failed');
  const unansweredBots = failed.filter((t) => t.error === NO_ACKNOWLEDGEMENT).map((t) => t.botId);
  const refusedBots = failed.filter((t) => t.error !== NO_ACKNOWLEDGEMENT).map((t) => t.botId);
  return {
    applied: change.counts.applied,
    refused: refusedBots.length,
    unanswered: unansweredBots.length,
    refusedBots,
    unansweredBots,
  };
}
