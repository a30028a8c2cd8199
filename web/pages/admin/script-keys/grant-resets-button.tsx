import { RotateCcw } from 'lucide-react';
import { useId, useState } from 'react';
import { ConfirmActionButton } from '@/components/confirm-action-button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { GRANT_RESETS_RANGE } from '../../../../common/key-status.ts';
import { maskLicenseKey } from '../../../../common/mask.ts';
import type { ScriptKey } from '../../../../common/script-keys.ts';
import { useGrantResets } from './script-key-mutations.ts';

/** The count as a whole number in range, or null. */
function grantCount(text: string): number | null {
  const count = Number(text);
  return Number.isInteger(count) && count >= GRANT_RESETS_RANGE.min && count <= GRANT_RESETS_RANGE.max
    ? count
    : null;
}

/** "Grant resets": gives a key extra device resets on top of the weekly budget (a buyer spends them on My key). */
export function GrantResetsButton({ scriptKey: key }: { scriptKey: ScriptKey }) {
  const fieldId = useId();
  const hintId = useId();
  const [text, setText] = useState('1');
  const grant = useGrantResets();
  const count = grantCount(text);
  return (
    <ConfirmActionButton
      icon={<RotateCcw />}
      label="Grant resets"
      className="h-7 w-7 text-sky-400 hover:text-sky-300"
      title="Grant device resets"
      description={`${maskLicenseKey(key.scriptKey)} gets extra device resets on top of the weekly budget; its buyer uses them on My key.`}
      confirmLabel="Grant"
      confirmVariant="default"
      confirmDisabled={count === null}
      onOpenChange={(open) => open && setText('1')}
      onConfirm={() => count !== null && grant.mutate({ keyId: key.id, count })}
      pending={grant.isPending}
    >
      <div className="grid gap-2">
        <Label htmlFor={fieldId}>Resets to grant</Label>
        <Input
          id={fieldId}
          type="number"
          inputMode="numeric"
          min={GRANT_RESETS_RANGE.min}
          max={GRANT_RESETS_RANGE.max}
          step={1}
          value={text}
          aria-invalid={count === null ? true : undefined}
          aria-describedby={hintId}
          onChange={(event) => setText(event.target.value)}
        />
        <p id={hintId} className="text-xs text-muted-foreground">
          A whole number from {GRANT_RESETS_RANGE.min} to {GRANT_RESETS_RANGE.max}.
        </p>
      </div>
    </ConfirmActionButton>
  );
}
