import { KeyRound, MonitorSmartphone, RotateCcw } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-action-button.tsx';
import { BackToHomeButton, glassCard, PublicShell } from '@/components/public-shell.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { ApiError, apiRequest } from '@/lib/api.ts';
import { cn } from '@/lib/cn.ts';
import { plural } from '@/lib/plural.ts';
import { formatDate } from '../../../common/format.ts';
import type { KeyStatusResponse, ResetHwidRefused, ResetHwidResponse } from '../../../common/key-status.ts';
import type { ScriptKeyType } from '../../../common/script-keys.ts';
import { timeUntil } from './key-time.ts';

type KeyStatus = KeyStatusResponse;

/** The key types' names (common/script-keys.ts has them too, but loads zod, which public pages never do). */
const TYPE_LABELS: Record<ScriptKeyType, string> = {
  FREE: 'Free',
  PREMIUM: 'Premium',
  VIP: 'VIP',
  premium_24h: 'Premium 24h',
};

export const KEY_PAGE_TEXTS = {
  notFound: 'Key not found. Check that you pasted the whole key, exactly as you received it.',
  tooMany: 'Too many checks. Wait a minute and try again.',
  failed: 'Could not reach the server. Try again.',
  resetFailed: 'The reset failed. Try again.',
} as const;

/** When the next reset comes, in words: the date and how long until it. */
function nextResetText(nextResetAt: string): string {
  return `${formatDate(nextResetAt)} (in ${timeUntil(nextResetAt)})`;
}

/** The public My key page (/key): a buyer checks their script key and resets its devices. */
export function KeyPage() {
  const [key, setKey] = useState('');
  const [checking, setChecking] = useState(false);
  const [status, setStatus] = useState<{ key: string; value: KeyStatus } | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function check(event: React.FormEvent) {
    event.preventDefault();
    const pasted = key.trim();
    if (pasted === '') return;
    setChecking(true);
    setError(null);
    try {
      // A POST, so the key stays out of URLs and logs.
      const value = await apiRequest<KeyStatus>('POST', '/api/script/key-status', { key: pasted });
      setStatus({ key: pasted, value });
    } catch (cause) {
      setStatus(null);
      const code = cause instanceof ApiError ? cause.status : null;
      setError(
        code === 404
          ? KEY_PAGE_TEXTS.notFound
          : code === 429
            ? KEY_PAGE_TEXTS.tooMany
            : KEY_PAGE_TEXTS.failed,
      );
    } finally {
      setChecking(false);
    }
  }

  return (
    <PublicShell className="max-w-3xl">
      <BackToHomeButton />
      <header className="mb-8">
        <h1 className="text-4xl font-extrabold tracking-tight text-white sm:text-5xl">My key</h1>
        <p className="mt-3 text-lg text-slate-300">
          Paste your script key to see its status, its devices, and to move it to a new PC.
        </p>
      </header>

      <Card className={glassCard}>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <KeyRound className="h-5 w-5 text-cyan-300" aria-hidden="true" />
            Your script key
          </CardTitle>
        </CardHeader>
        <CardContent>
          <form className="grid gap-3 sm:flex sm:items-end" onSubmit={check}>
            <div className="grid flex-1 gap-2">
              <Label htmlFor="script-key">Script key</Label>
              <Input
                id="script-key"
                autoComplete="off"
                spellCheck={false}
                value={key}
                onChange={(event) => setKey(event.target.value)}
                className="font-mono"
              />
            </div>
            <Button type="submit" disabled={checking || key.trim() === ''}>
              {checking ? 'Checking...' : 'Check key'}
            </Button>
          </form>
          {error && (
            <p role="alert" className="mt-3 text-sm text-red-300">
              {error}
            </p>
          )}
        </CardContent>
      </Card>

      {status && (
        <KeyDetails
          key={status.key}
          scriptKey={status.key}
          status={status.value}
          onReset={(result) =>
            setStatus({
              key: status.key,
              value: {
                ...status.value,
                devices: [],
                resetsLeft: result.resetsLeft,
                nextResetAt: result.nextResetAt,
              },
            })
          }
        />
      )}
    </PublicShell>
  );
}

/** The expiry date with the time left ("expired" once past). */
function expiryText(expiresAt: string): string {
  const left = timeUntil(expiresAt);
  return `${formatDate(expiresAt)} (${left === 'now' ? 'expired' : `${left} left`})`;
}

/** A refused reset in words: over budget (429) says when the next one is possible. */
function resetFailure(cause: unknown): string {
  if (!(cause instanceof ApiError)) return KEY_PAGE_TEXTS.resetFailed;
  if (cause.status === 429) {
    try {
      const { nextResetAt } = JSON.parse(cause.body) as ResetHwidRefused;
      return nextResetAt
        ? `No resets left. The next reset is available ${nextResetText(nextResetAt)}.`
        : 'No resets left. Ask the seller for an extra reset.';
    } catch {
      // not JSON: the server's text below
    }
  }
  if (cause.status === 404) return KEY_PAGE_TEXTS.notFound;
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

function KeyDetails({
  scriptKey,
  status,
  onReset,
}: {
  scriptKey: string;
  status: KeyStatus;
  onReset: (result: ResetHwidResponse) => void;
}) {
  const [resetting, setResetting] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);

  async function reset() {
    setResetting(true);
    setOutcome(null);
    try {
      const result = await apiRequest<ResetHwidResponse>('POST', '/api/script/reset-hwid', {
        key: scriptKey,
      });
      onReset(result);
      setOutcome({
        ok: true,
        text: `Devices reset: ${plural(result.removed, 'device', 'devices')} removed.`,
      });
    } catch (cause) {
      setOutcome({ ok: false, text: resetFailure(cause) });
    } finally {
      setResetting(false);
    }
  }

  return (
    <div className="mt-6 grid gap-6">
      <Card className={glassCard}>
        <CardHeader>
          <CardTitle>Key status</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="text-sm">
            <Row label="Type">{TYPE_LABELS[status.type] ?? status.type}</Row>
            <Row label="Status">{status.status}</Row>
            {status.disabledReason !== null && (
              <Row label="Why">{`Switched off: ${status.disabledReason}.`}</Row>
            )}
            <Row label="Expires">{status.expiresAt === null ? 'Never' : expiryText(status.expiresAt)}</Row>
          </dl>
        </CardContent>
      </Card>

      <Card className={glassCard}>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <MonitorSmartphone className="h-5 w-5 text-cyan-300" aria-hidden="true" />
            Devices
          </CardTitle>
          <CardDescription>
            {status.devices.length} of {plural(status.maxDevices, 'device', 'devices')} bound
          </CardDescription>
        </CardHeader>
        <CardContent>
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
        </CardContent>
      </Card>

      <Card className={glassCard}>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <RotateCcw className="h-5 w-5 text-cyan-300" aria-hidden="true" />
            Device resets
          </CardTitle>
          <CardDescription>
            A reset unbinds every device, so you can load the script on a new PC.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3 text-sm">
          <dl>
            <Row label="Resets left">{status.resetsLeft}</Row>
            {status.nextResetAt !== null && <Row label="Next reset">{nextResetText(status.nextResetAt)}</Row>}
          </dl>
          <ConfirmDialog
            trigger={
              <Button variant="outline" className="justify-self-start" disabled={resetting}>
                {resetting ? 'Resetting...' : 'Reset devices'}
              </Button>
            }
            title="Reset devices?"
            description="Every device bound to this key is removed, and this uses one of your resets. The next device that loads the script binds to the key."
            confirmLabel="Reset devices"
            confirmVariant="default"
            onConfirm={() => void reset()}
          />
          {outcome && (
            <p
              role={outcome.ok ? 'status' : 'alert'}
              className={cn(outcome.ok ? 'text-emerald-300' : 'text-red-300')}
            >
              {outcome.text}
            </p>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
