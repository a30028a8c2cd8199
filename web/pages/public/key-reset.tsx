import { RotateCcw } from 'lucide-react';
import { type MouseEvent, useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-action-button.tsx';
import { Button } from '@/components/ui/button.tsx';
import { apiRequest } from '@/lib/api.ts';
import { plural } from '@/lib/plural.ts';
import type { KeyStatusResponse, ResetHwidResponse } from '../../../common/key-status.ts';
import {
  failure,
  KEY_DETAILS_TEXTS,
  nextResetText,
  noResetLeftText,
  Outcome,
  Row,
  SectionCard,
} from './key-parts.tsx';

/** The id of the line saying why no reset can be made: the Reset button's description. */
const NO_RESET_LEFT_ID = 'no-reset-left';

/** My key's device reset: the budget, the button (asking first) and what the reset did. */
export function ResetDevices({
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

  // Why no reset can be made now, shown in place of the button.
  const blocked = expired
    ? KEY_DETAILS_TEXTS.expiredNoReset
    : status.status === 'Inactive'
      ? KEY_DETAILS_TEXTS.inactiveNoReset
      : null;
  const noneLeft = status.resetsLeft <= 0;
  // Marked unavailable rather than `disabled`, so the button keeps the focus the dialog gives back to
  // it on closing (the reset that spends the last one makes it unavailable), and a screen reader
  // reads why on it. A press then opens nothing.
  const unavailable = resetting || noneLeft;
  const refusePress = (event: MouseEvent) => {
    if (unavailable) event.preventDefault();
  };
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
                className="justify-self-start aria-disabled:cursor-not-allowed aria-disabled:opacity-50"
                aria-disabled={unavailable || undefined}
                aria-describedby={noneLeft ? NO_RESET_LEFT_ID : undefined}
                onClick={refusePress}
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
          {noneLeft && (
            <p id={NO_RESET_LEFT_ID} className="text-muted-foreground">
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
