import { Copy } from 'lucide-react';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Subheading } from '@/components/ui/heading-level.tsx';
import { copyToClipboard } from '@/lib/clipboard.ts';
import { buildLoaderSnippet } from '../../../../common/loader-snippet.ts';
import type { ScriptAccessType } from '../../../../common/scripts.ts';

/** Stands in for the buyer's own script key in the premium loader the admin hands out. */
export const SCRIPT_KEY_PLACEHOLDER = 'YOUR_SCRIPT_KEY';

/**
 * The lines script users paste into their executor: keyless for FREE scripts, with a script key
 * for PREMIUM ones. Both are shown (an access type can change); the one that applies is marked.
 */
export function ScriptLoaderStrings({ name, accessType }: { name: string; accessType: ScriptAccessType }) {
  const origin = window.location.origin;
  const loaders = [
    {
      kind: 'FREE' as const,
      title: 'Free loader',
      hint: 'Keyless: works while the script is FREE.',
      text: buildLoaderSnippet(origin, name),
    },
    {
      kind: 'PREMIUM' as const,
      title: 'Premium loader',
      hint: `Replace ${SCRIPT_KEY_PLACEHOLDER} with the buyer's script key.`,
      text: buildLoaderSnippet(origin, name, SCRIPT_KEY_PLACEHOLDER),
    },
  ];
  return (
    <div className="grid gap-4">
      {loaders.map((loader) => (
        <section key={loader.kind} aria-label={loader.title} className="grid gap-1.5">
          <div className="flex items-center justify-between gap-2">
            <div className="flex items-center gap-2">
              <Subheading className="text-sm font-medium">{loader.title}</Subheading>
              {loader.kind === accessType && <Badge variant="secondary">Applies</Badge>}
            </div>
            <Button
              variant="ghost"
              size="sm"
              aria-label={`Copy ${loader.title.toLowerCase()}`}
              onClick={() => void copyToClipboard(loader.text, `${loader.title} for ${name}`, 'Copy Failed')}
            >
              <Copy />
              Copy
            </Button>
          </div>
          <pre className="overflow-x-auto rounded-md border border-input bg-muted/40 p-2 text-xs">
            <code className="break-all whitespace-pre-wrap">{loader.text}</code>
          </pre>
          <p className="text-xs text-muted-foreground">{loader.hint}</p>
        </section>
      ))}
    </div>
  );
}
