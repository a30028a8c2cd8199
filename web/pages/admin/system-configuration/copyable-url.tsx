import { Copy } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { copyToClipboard } from '@/lib/clipboard.ts';

/** A URL this site gives another service (BTCPay's webhook, Discord's interactions), with a copy button. */
export function CopyableUrl({
  label,
  url,
  testId,
  pasteHint,
  children,
}: {
  /** The field's name, as the other service calls it. */
  label: string;
  url: string;
  testId: string;
  /** The toast's description after copying: where to paste it. */
  pasteHint: string;
  /** What to do with it, under the URL. */
  children: ReactNode;
}) {
  return (
    <div className="grid max-w-2xl gap-2">
      <span className="text-sm font-medium">{label}</span>
      <div className="flex items-center gap-2">
        <code
          className="min-w-0 flex-1 break-all rounded bg-muted px-2 py-1.5 font-mono text-xs"
          data-testid={testId}
        >
          {url}
        </code>
        <Button
          variant="outline"
          size="icon"
          className="h-8 w-8 shrink-0"
          aria-label={`Copy ${label.toLowerCase()}`}
          title={`Copy ${label.toLowerCase()}`}
          onClick={() => void copyToClipboard(url, pasteHint)}
        >
          <Copy />
        </Button>
      </div>
      <p className="text-xs text-muted-foreground">{children}</p>
    </div>
  );
}
