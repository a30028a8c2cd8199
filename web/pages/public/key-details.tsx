import { CalendarPlus, KeyRound, MonitorSmartphone } from 'lucide-react';
import { useState } from 'react';
import { MaskedSecret } from '@/components/masked-secret.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { apiRequest } from '@/lib/api.ts';
import { plural } from '@/lib/plural.ts';
import { formatDate } from '../../../common/format.ts';
import type { KeyStatusResponse } from '../../../common/key-status.ts';
import { maskLicenseKey } from '../../../common/mask.ts';
import type { RenewResponse } from '../../../common/script-access.ts';
import type { ScriptKeyType } from '../../../common/script-keys.ts';
import { expiryText, failure, KEY_DETAILS_TEXTS, Outcome, Row, SectionCard } from './key-parts.tsx';
import { ResetDevices } from './key-reset.tsx';

export { KEY_DETAILS_TEXTS, SectionCard } from './key-parts.tsx';

/** The key types' names (common/script-keys.ts has them too, but loads zod, which public pages never do). */
const TYPE_LABELS: Record<ScriptKeyType, string> = {
  FREE: 'Free',
  PREMIUM: 'Premium',
  VIP: 'VIP',
  premium_24h: 'Premium 24h',
};

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
