import { ShieldCheck } from 'lucide-react';
import { ErrorBoundary } from '@/components/error-boundary.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { type HeadingTag, useHeadingLevel } from '@/components/ui/heading-level.tsx';
import { cn } from '@/lib/cn.ts';
import type { ScriptsPageConfig, ScriptsPageSection } from '../../../common/scripts-page.ts';
import { type ButtonProblemOf, ScriptSection } from './script-section.tsx';

/*
 * The parts of the public scripts page that the admin's scripts page editor previews as well, so the
 * preview is the page visitors get, not a copy of it.
 */

/** The page's title, subtitle and security badge (also shown by the admin editor's preview). */
export function ScriptsPageHeader({
  config,
}: {
  config: Pick<ScriptsPageConfig, 'headerTitle' | 'headerSubtitle' | 'securityBadge'>;
}) {
  // The page's h1 on /scripts; a level deeper in the editor's preview, under the screen's own h1.
  const Title = `h${Math.min(useHeadingLevel() ?? 1, 6)}` as HeadingTag;
  return (
    <header className="mb-10 flex flex-col items-center text-center">
      {/* max-w-full and wrap-anywhere: a title with a word wider than a phone wraps instead of running
          past both sides (the header centres it). */}
      <Title className="max-w-full bg-gradient-to-r from-white via-blue-100 to-cyan-200 bg-clip-text text-4xl font-extrabold tracking-tight text-balance text-transparent wrap-anywhere sm:text-5xl">
        {config.headerTitle}
      </Title>
      {config.headerSubtitle && (
        <p className="mt-4 max-w-2xl text-lg text-slate-300 wrap-anywhere">{config.headerSubtitle}</p>
      )}
      {config.securityBadge && (
        <Badge className="mt-5 border-emerald-400/30 bg-emerald-500/15 px-3 py-1 text-emerald-300">
          <ShieldCheck className="h-3.5 w-3.5" aria-hidden="true" />
          {config.securityBadge}
        </Badge>
      )}
    </header>
  );
}

/**
 * The sections side by side from `md` up (one column when there is only one), each in its own boundary.
 * `buttonProblem` marks buttons in the admin's preview (see ScriptSection).
 */
export function ScriptSectionGrid({
  sections,
  buttonProblem,
}: {
  sections: ScriptsPageSection[];
  buttonProblem?: ButtonProblemOf;
}) {
  return (
    <div className={cn('grid grid-cols-1 gap-6', sections.length > 1 && 'md:grid-cols-2')}>
      {sections.map((section) => (
        <ErrorBoundary key={section.id} level="component">
          <ScriptSection section={section} buttonProblem={buttonProblem} />
        </ErrorBoundary>
      ))}
    </div>
  );
}
