import { Copy, Eye, EyeOff } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { copyToClipboard } from '@/lib/clipboard.ts';

/**
 * A secret shown masked, with a reveal toggle of its own (one per row) and a copy button that
 * always copies the whole value. `noun` names the secret in the buttons' labels ("Reveal code",
 * "Copy key"); `mask` is the screen's masking rule (maskRedemptionCode, maskLicenseKey).
 */
export function MaskedSecret({
  value,
  mask,
  noun,
  copiedText,
  testId,
}: {
  value: string;
  mask: (value: string) => string;
  noun: string;
  /** The 'Copied to clipboard' toast's description. */
  copiedText?: string;
  testId?: string;
}) {
  const [revealed, setRevealed] = useState(false);
  const toggleLabel = `${revealed ? 'Hide' : 'Reveal'} ${noun}`;
  return (
    // In a narrow column the two buttons go under the value together, and the value (masked, or a
    // revealed 67-character script key) wraps, rather than stretching the table past the window.
    <div className="flex flex-wrap items-center gap-1">
      <code className="min-w-0 break-all rounded bg-muted px-1.5 py-1 font-mono text-xs" data-testid={testId}>
        {revealed ? value : mask(value)}
      </code>
      <div className="flex gap-1">
        <Button
          variant="ghost"
          size="icon"
          className="h-7 w-7 shrink-0"
          aria-label={toggleLabel}
          title={toggleLabel}
          aria-pressed={revealed}
          onClick={() => setRevealed((r) => !r)}
        >
          {revealed ? <EyeOff /> : <Eye />}
        </Button>
        <Button
          variant="ghost"
          size="icon"
          className="h-7 w-7 shrink-0"
          aria-label={`Copy ${noun}`}
          title={`Copy ${noun}`}
          onClick={() => void copyToClipboard(value, copiedText)}
        >
          <Copy />
        </Button>
      </div>
    </div>
  );
}
