import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { BackToHomeButton, PublicShell } from '@/components/public-shell.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { ApiError, apiRequest } from '@/lib/api.ts';
import { useTypedBeforeHydration } from '@/lib/typed-before-hydration.ts';
import type { KeyStatusResponse } from '../../../common/key-status.ts';
import { KEY_DETAILS_TEXTS, KeyDetails, SectionCard } from './key-details.tsx';

type KeyStatus = KeyStatusResponse;

export const KEY_PAGE_TEXTS = {
  notFound: KEY_DETAILS_TEXTS.notFound,
  tooMany: 'Too many checks. Wait a minute and try again.',
  failed: 'Could not reach the server. Try again.',
} as const;

/**
 * The public My key page (/key): a buyer finds their key with anything they were given (the script
 * key, the license key, the code they redeemed or their order link), sees and copies it, resets its
 * devices for a new PC and renews it with a new code.
 */
export function KeyPage() {
  const [key, setKey] = useState('');
  useTypedBeforeHydration('script-key', setKey);
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
          Paste your script key, license key, the code you redeemed or your order link to see your key, its
          time left and devices, move it to a new PC, or renew it.
        </p>
      </header>

      <SectionCard icon={KeyRound} title="Your script key">
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
              aria-describedby="script-key-hint"
            />
            <p id="script-key-hint" className="text-xs text-muted-foreground">
              SK-…, SCAN-…, the SCANLINE-… code you redeemed, or the …/order/…#… link of your order.
            </p>
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
      </SectionCard>

      {status && (
        <KeyDetails
          key={status.key}
          given={status.key}
          status={status.value}
          onChange={(value) => setStatus({ key: status.key, value })}
        />
      )}
    </PublicShell>
  );
}
