import { CalendarPlus, KeyRound, type LucideIcon, MonitorSmartphone, RotateCcw } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-action-button.tsx';
import { MaskedSecret } from '@/components/masked-secret.tsx';
import { glassCard } from '@/components/public-shell.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { ApiError, apiRequest } from '@/lib/api.ts';
import { cn } from '@/lib/cn.ts';
import { plural } from '@/lib/plural.ts';
import { formatDate } from '../../../common/format.ts';
import type { KeyStatusResponse, ResetHwidRefused, ResetHwidResponse } from '../../../common/key-status.ts';
import { maskLicenseKey } from '../../../common/mask.ts';
import type { RenewResponse } from '../../../common/script-access.ts';
import type { ScriptKeyType } from '../../../common/script-keys.ts';
import { timeUntil } from './key-time.ts';

/** The key types' names (common/script-keys.ts has them too, but loads zod, which public pages never do). */
const TYPE_LABELS: Record<ScriptKeyType, string> = {
  FREE: 'Free',
  PREMIUM: 'Premium',
  VIP: 'VIP',
  premium_24h: 'Premium 24h',
};

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
function nextResetText(nextResetAt: string): string {
  return `${formatDate(nextResetAt)} (in ${timeUntil(nextResetAt)})`;
}

function noResetLeftText(nextResetAt: string | null): string {
  return nextResetAt
    ? `No resets left. The next reset is available ${nextResetText(nextResetAt)}.`
    : KEY_DETAILS_TEXTS.askSeller;
}

/** The expiry date with the time left ("expired" once past). */
function expiryText(expiresAt: string): string {
  const left = timeUntil(expiresAt);
  return `${formatDate(expiresAt)} (${left === 'now' ? 'expired' : `${left} left`})`;
}

/** A refused call in words: over budget (429) says when the next reset is possible. */
function failure(cause: unknown, fallback: string): string {
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

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-wrap justify-between gap-2 border-b border-white/5 py-2 last:border-0">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium text-foreground">{children}</dd>
    </div>
  );
}

function Outcome({ outcome }: { outcome: { ok: boolean; text: string } | null }) {
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

/**
 * What My key shows once a key is found: the key itself (masked, reveal and copy), its type and time
 * left, its devices, the device reset and a renewal. `given` is what the buyer typed (any form the
 * server takes); calls use the script key itself when the answer carries it.
 */
export function KeyDetails({
  given,
  status,
  onChange,
}: {
  given: string;
  status: KeyStatusResponse;
  onChange: (status: KeyStatusResponse) => void;
}) {
  const key = status.scriptKey ?? given;
  const expired = status.status === 'Expired';
  return (
    <div className="mt-6 grid gap-6">
      <SectionCard icon={KeyRound} title="Key status">
        <dl className="text-sm">
          {status.scriptKey && (
            <Row label="Script key">
              <MaskedSecret
                value={status.scriptKey}
                mask={maskLicenseKey}
                noun="key"
                copiedText="Your script key"
                testId="my-script-key"
              />
            </Row>
          )}
          <Row label="Type">{TYPE_LABELS[status.type] ?? status.type}</Row>
          <Row label="Status">{status.status}</Row>
          {status.disabledReason !== null && (
            <Row label="Why">{`Switched off: ${status.disabledReason}.`}</Row>
          )}
          <Row label="Expires">{status.expiresAt === null ? 'Never' : expiryText(status.expiresAt)}</Row>
        </dl>
      </SectionCard>

      <SectionCard
        icon={MonitorSmartphone}
        title="Devices"
        description={
          <>
            {status.devices.length} of {plural(status.maxDevices, 'device', 'devices')} bound
          </>
        }
      >
        {status.devices.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            No device is bound. The next device that loads the script binds to this key.
          </p>
        ) : (
          <ul className="grid gap-3">
            {status.devices.map((device) => (
              <li key={device.id} className="rounded-lg border border-white/10 bg-white/[0.03] p-3 text-sm">
                <p className="font-mono text-foreground">{device.id}</p>
                <p className="text-muted-foreground">
                  First seen {formatDate(device.firstSeen)} · Last seen {formatDate(device.lastSeen)}
                </p>
              </li>
            ))}
          </ul>
        )}
      </SectionCard>

      <ResetDevices scriptKey={key} status={status} expired={expired} onChange={onChange} />
      <RenewKey scriptKey={key} status={status} onChange={onChange} />
    </div>
  );
}

function ResetDevices({
  scriptKey,
  status,
  expired,
  onChange,
}: {
  scriptKey: string;
  status: KeyStatusResponse;
  expired: boolean;
  onChange: (status: KeyStatusResponse) => void;
}) {
  const [resetting, setResetting] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [done, setDone] = useState(false);

  async function reset() {
    setResetting(true);
    setOutcome(null);
    try {
      const result = await apiRequest<ResetHwidResponse>('POST', '/api/script/reset-hwid', {
        key: scriptKey,
      });
      onChange({ ...status, devices: [], resetsLeft: result.resetsLeft, nextResetAt: result.nextResetAt });
      setDone(true);
      setOutcome({
        ok: true,
        text: `Devices reset: ${plural(result.removed, 'device', 'devices')} removed.`,
      });
    } catch (cause) {
      setOutcome({ ok: false, text: failure(cause, KEY_DETAILS_TEXTS.resetFailed) });
    } finally {
      setResetting(false);
    }
  }

  // Why no reset can be made now, shown in place of (or beside a disabled) button.
  const blocked = expired
    ? KEY_DETAILS_TEXTS.expiredNoReset
    : status.status === 'Inactive'
      ? KEY_DETAILS_TEXTS.inactiveNoReset
      : null;
  const noneLeft = status.resetsLeft <= 0;
  return (
    <SectionCard
      icon={RotateCcw}
      title="Device resets"
      description="A reset unbinds every device, so you can load the script on a new PC."
      contentClassName="grid gap-3 text-sm"
    >
      <dl>
        <Row label="Resets left">{status.resetsLeft}</Row>
        {status.nextResetAt !== null && <Row label="Next reset">{nextResetText(status.nextResetAt)}</Row>}
      </dl>
      {blocked !== null ? (
        <p className="text-muted-foreground">{blocked}</p>
      ) : (
        <>
          <ConfirmDialog
            trigger={
              <Button
                variant="outline"
                className="justify-self-start"
                disabled={resetting || noneLeft}
                aria-describedby={noneLeft ? 'no-reset-left' : undefined}
              >
                {resetting ? 'Resetting...' : 'Reset devices'}
              </Button>
            }
            title="Reset devices?"
            description={KEY_DETAILS_TEXTS.confirmReset}
            confirmLabel="Reset devices"
            confirmVariant="default"
            onConfirm={() => void reset()}
          />
          {noneLeft && !done && (
            <p id="no-reset-left" className="text-muted-foreground">
              {noResetLeftText(status.nextResetAt)}
            </p>
          )}
        </>
      )}
      <Outcome outcome={outcome} />
      {done && <p className="font-medium text-cyan-200">{KEY_DETAILS_TEXTS.runAgain}</p>}
    </SectionCard>
  );
}

function RenewKey({
  scriptKey,
  status,
  onChange,
}: {
  scriptKey: string;
  status: KeyStatusResponse;
  onChange: (status: KeyStatusResponse) => void;
}) {
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);

  async function renew(event: React.FormEvent) {
    event.preventDefault();
    const typed = code.trim();
    if (typed === '') return;
    setBusy(true);
    setOutcome(null);
    try {
      // No device id: a renewal binds nothing, it adds the code's hours to this key.
      const result = await apiRequest<RenewResponse>('POST', '/api/script/redeem', {
        code: typed,
        key: scriptKey,
      });
      onChange({ ...status, status: 'Active', expiresAt: result.expiresAt });
      setCode('');
      setOutcome({
        ok: true,
        text: `Added ${plural(result.addedHours, 'hour', 'hours')}. The key now expires ${expiryText(result.expiresAt)}.`,
      });
    } catch (cause) {
      setOutcome({ ok: false, text: failure(cause, KEY_DETAILS_TEXTS.renewFailed) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <SectionCard
      icon={CalendarPlus}
      title="Renew"
      description="Redeem a new code of the same type onto this key: its hours are added to the time left, and your devices stay bound."
      contentClassName="grid gap-3 text-sm"
    >
      <form className="grid gap-3 sm:flex sm:items-end" onSubmit={renew}>
        <div className="grid flex-1 gap-2">
          <Label htmlFor="renewal-code">Renewal code</Label>
          <Input
            id="renewal-code"
            autoComplete="off"
            spellCheck={false}
            placeholder="SCANLINE-XXXX-XXXX-XXXX-XXXX"
            value={code}
            onChange={(event) => setCode(event.target.value)}
            className="font-mono"
          />
        </div>
        <Button type="submit" disabled={busy || code.trim() === ''}>
          {busy ? 'Adding...' : 'Add time'}
        </Button>
      </form>
      <Outcome outcome={outcome} />
    </SectionCard>
  );
}
