import type { MouseEvent } from 'react';
import { ErrorBoundary } from '@/components/error-boundary.tsx';
import { cn } from '@/lib/cn.ts';
import type { ScriptsPageConfig } from '../../../common/scripts-page.ts';
import { BackToHomeButton } from '../public/public-shell.tsx';
import { ScriptSection } from '../public/script-section.tsx';
import { ScriptsPageHeader } from '../public/scripts.tsx';
import { visibleInOrder } from '../public/scripts-content.ts';

/** Links in the preview would leave the editor (and its unsaved draft); buttons still work. */
function keepLinksInert(event: MouseEvent) {
  if (event.target instanceof Element && event.target.closest('a')) event.preventDefault();
}

/**
 * The draft as visitors will see /scripts: the public page's own header and section cards, with
 * only the visible sections and buttons, in order.
 */
export function ScriptsPagePreview({ config }: { config: ScriptsPageConfig }) {
  const sections = visibleInOrder(config.sections);
  return (
    <div className="grid gap-2">
      <p className="text-sm text-muted-foreground">
        What visitors will see on /scripts once you save. Hidden sections and buttons are left out.
      </p>
      <div
        data-testid="scripts-page-preview"
        className="dark overflow-hidden rounded-xl border border-white/10 bg-[#060814] px-4 py-8 text-foreground sm:px-8"
        onClickCapture={keepLinksInert}
      >
        {config.showBackButton === 1 && <BackToHomeButton />}
        <ScriptsPageHeader config={config} />
        {sections.length === 0 ? (
          <p className="py-10 text-center text-sm text-muted-foreground">No visible sections.</p>
        ) : (
          <div className={cn('grid grid-cols-1 gap-6', sections.length > 1 && 'md:grid-cols-2')}>
            {sections.map((section) => (
              <ErrorBoundary key={section.id} level="component">
                <ScriptSection section={section} />
              </ErrorBoundary>
            ))}
          </div>
        )}
      </div>
    </div>
  );
}
