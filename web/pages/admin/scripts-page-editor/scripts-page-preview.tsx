import type { MouseEvent } from 'react';
import { BackToHomeButton } from '@/components/public-shell.tsx';
import type { ButtonProblemOf } from '@/components/scripts-page/script-section.tsx';
import { visibleInOrder } from '@/components/scripts-page/scripts-content.ts';
import { ScriptSectionGrid, ScriptsPageHeader } from '@/components/scripts-page/scripts-page-parts.tsx';
import { HeadingLevel, useHeadingLevel } from '@/components/ui/heading-level.tsx';
import type { ScriptsPageConfig } from '../../../../common/scripts-page.ts';

/** Links in the preview would leave the editor (and its unsaved draft); buttons still work. */
function keepLinksInert(event: MouseEvent) {
  if (event.target instanceof Element && event.target.closest('a')) event.preventDefault();
}

/**
 * The draft as visitors will see /scripts: the public page's own header and section cards, with
 * only the visible sections and buttons, in order.
 */
export function ScriptsPagePreview({
  config,
  buttonProblem,
}: {
  config: ScriptsPageConfig;
  /** Marks the buttons that would fail for visitors. */
  buttonProblem?: ButtonProblemOf;
}) {
  const sections = visibleInOrder(config.sections);
  // The previewed page's headings sit a level below the screen's, so the screen keeps one h1.
  const level = (useHeadingLevel() ?? 0) + 1;
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
        <HeadingLevel level={level}>
          {config.showBackButton === 1 && <BackToHomeButton />}
          <ScriptsPageHeader config={config} />
          {sections.length === 0 ? (
            <p className="py-10 text-center text-sm text-muted-foreground">No visible sections.</p>
          ) : (
            <ScriptSectionGrid sections={sections} buttonProblem={buttonProblem} />
          )}
        </HeadingLevel>
      </div>
    </div>
  );
}
