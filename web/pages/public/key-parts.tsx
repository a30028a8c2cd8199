import type { LucideIcon } from 'lucide-react';
import { glassCard } from '@/components/public-shell.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { ApiError } from '@/lib/api.ts';
import { cn } from '@/lib/cn.ts';
import { formatDate } from '../../../common/format.ts';
import type { ResetHwidRefused } from '../../../common/key-status.ts';
import { timeUntil } from './key-time.ts';

/* The texts and small parts My key's cards share (key-details.tsx, key-reset.tsx). */

export const KEY_DETAILS_TEXTS = {
  resetFailed: 'The reset failed. Try again.',
  renewFailed: 'The code could not be added. Try again.',
  notFound:
    'Key not found. Check that you pasted the whole key, code or order link, exactly as you received it.',
  confirmReset:
    'Close the script on the old PC first. Every device bound to this key is removed and cannot use it again for a while (a script still running there stops), and this uses one of your resets.',
  runAgain: 'Now run the script again on your new PC: it binds to the key.',
  expiredNoReset: 'This key has expired, so its devices cannot be reset. Renew it with a new code below.',
  inactiveNoReset: 'This key is switched off, so its devices cannot be reset.',
  askSeller: 'No resets left. Ask the seller for an extra reset.',
} as const;

/** When the next reset comes, in words: the date and how long until it. */
export function nextResetText(nextResetAt: string): string {
  return `${formatDate(nextResetAt)} (in ${timeUntil(nextResetAt)})`;
}

export function noResetLeftText(nextResetAt: string | null): string {
  return nextResetAt
    ? `No resets left. The next reset is available ${nextResetText(nextResetAt)}.`
    : KEY_DETAILS_TEXTS.askSeller;
}

/** The expiry date with the time left ("expired" once past). */
export function expiryText(expiresAt: string): string {
  const left = timeUntil(expiresAt);
  return `${formatDate(expiresAt)} (${left === 'now' ? 'expired' : `${left} left`})`;
}

/** A refused call in words: over budget (429) says when the next reset is possible. */
export function failure(cause: unknown, fallback: string): string {
  if (!(cause instanceof ApiError)) return fallback;
  if (cause.status === 429) {
    try {
      const { nextResetAt } = JSON.parse(cause.body) as ResetHwidRefused;
      if (nextResetAt !== undefined) return noResetLeftText(nextResetAt);
    } catch {
      // not JSON: the server's text below
    }
  }
  if (cause.status === 404) return KEY_DETAILS_TEXTS.notFound;
  return cause.serverMessage;
}

export function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-wrap justify-between gap-2 border-b border-white/5 py-2 last:border-0">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium text-foreground">{children}</dd>
    </div>
  );
}

export function Outcome({ outcome }: { outcome: { ok: boolean; text: string } | null }) {
  if (!outcome) return null;
  return (
    <p
      role={outcome.ok ? 'status' : 'alert'}
      className={cn(outcome.ok ? 'text-emerald-300' : 'text-red-300')}
    >
      {outcome.text}
    </p>
  );
}

/** One of My key's cards: an icon and a title, an optional line under it, then its content. */
export function SectionCard({
  icon: Icon,
  title,
  description,
  contentClassName,
  children,
}: {
  icon: LucideIcon;
  title: string;
  description?: React.ReactNode;
  contentClassName?: string;
  children: React.ReactNode;
}) {
  return (
    <Card className={glassCard}>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Icon className="h-5 w-5 text-cyan-300" aria-hidden="true" />
          {title}
        </CardTitle>
        {description !== undefined && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent className={contentClassName}>{children}</CardContent>
    </Card>
  );
}
