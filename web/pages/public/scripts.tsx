import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, Crown, Terminal } from 'lucide-react';
import { BackToHomeButton, glassCard, PublicShell } from '@/components/public-shell.tsx';
import { visibleInOrder } from '@/components/scripts-page/scripts-content.ts';
import { ScriptSectionGrid, ScriptsPageHeader } from '@/components/scripts-page/scripts-page-parts.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { cn } from '@/lib/cn.ts';
import { DEFAULT_SCRIPTS_PAGE_CONFIG } from '../../../common/public-defaults.ts';
import type { ScriptsPageConfig } from '../../../common/scripts-page.ts';
import { scriptsPageConfigQuery } from './public-queries.ts';

export const CONFIG_ERROR_TEXTS = {
  fallback: 'Failed to load page configuration. Showing default view.',
  support: 'Unable to load dynamic configuration. Please contact support.',
} as const;

/** The public scripts page (/scripts and /script): content comes from the admin's page config. */
export function ScriptsPage() {
  const { data, isPending, isError } = useQuery(scriptsPageConfigQuery());
  if (isPending) return <ScriptsPageSkeleton />;
  // A failed load, or an answer without a config, still gives visitors the default page.
  const failed = isError || !data?.config;
  const config = failed ? DEFAULT_SCRIPTS_PAGE_CONFIG : data.config;
  return <ScriptsPageView config={config} configError={failed} />;
}

export function ScriptsPageView({
  config,
  configError,
}: {
  config: ScriptsPageConfig;
  configError: boolean;
}) {
  const sections = visibleInOrder(config.sections);
  return (
    <PublicShell>
      {config.showBackButton === 1 && <BackToHomeButton />}

      <ScriptsPageHeader config={config} />

      {configError && <ConfigurationErrorCard />}

      <ScriptSectionGrid sections={sections} />

      <HowToUse />
    </PublicShell>
  );
}

function ConfigurationErrorCard() {
  return (
    <Card role="alert" className="mb-8 border-red-500/40 bg-red-500/10">
      <CardContent className="flex gap-3 p-5">
        <AlertTriangle className="mt-0.5 h-5 w-5 shrink-0 text-red-400" aria-hidden="true" />
        <div className="grid gap-1">
          <p className="font-semibold text-red-100">Configuration Error</p>
          <p className="text-sm text-red-200">{CONFIG_ERROR_TEXTS.fallback}</p>
          <p className="text-sm text-red-300/80">{CONFIG_ERROR_TEXTS.support}</p>
        </div>
      </CardContent>
    </Card>
  );
}

const HOW_TO_STEPS = [
  { title: 'Download once', text: 'Download the script file, or copy its loader, from a section above.' },
  { title: 'Open your executor', text: 'Start the game and open your script executor.' },
  { title: 'Load or paste', text: 'Load the downloaded file, or paste the copied loader.' },
  { title: 'Execute', text: 'Run the script.' },
  { title: 'The scanner starts', text: 'It connects to the network and starts showing finds.' },
] as const;

function HowToUse() {
  return (
    <Card className={cn(glassCard, 'mt-10')}>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-xl">
          <Terminal className="h-5 w-5 text-cyan-300" aria-hidden="true" />
          How to Use
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-6">
        <ol className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
          {HOW_TO_STEPS.map((step, index) => (
            <li
              key={step.title}
              className="flex gap-3 rounded-lg border border-white/10 bg-white/[0.03] p-4 sm:block"
            >
              <span
                className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-blue-500 to-violet-600 text-sm font-bold text-white sm:mb-3"
                aria-hidden="true"
              >
                {index + 1}
              </span>
              <div>
                <p className="font-medium text-foreground">{step.title}</p>
                <p className="mt-1 text-sm text-muted-foreground">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
        <div className="flex gap-3 rounded-lg border border-amber-400/30 bg-amber-500/10 p-4 text-sm">
          <Crown className="mt-0.5 h-5 w-5 shrink-0 text-amber-300" aria-hidden="true" />
          <div>
            <p className="font-semibold text-amber-100">Premium is optional</p>
            <p className="text-amber-200/90">
              Have a redemption code? Use the in-game redemption panel, and premium activates for 24 hours.
            </p>
          </div>
        </div>
        <p className="text-sm text-muted-foreground">
          New PC, or a key that says its device limit is reached? Check your key and reset its devices on{' '}
          <a className="font-medium text-cyan-300 underline-offset-4 hover:underline" href="/key">
            My key
          </a>
          .
        </p>
      </CardContent>
    </Card>
  );
}

/** The page while its content loads (as prerendered): its layout, with the steps that never change. */
function ScriptsPageSkeleton() {
  return (
    <PublicShell>
      <div className="mb-10 flex flex-col items-center gap-4" aria-busy="true">
        <h1 className="sr-only">Loading scripts...</h1>
        <Skeleton className="h-12 w-72 bg-white/10" />
        <Skeleton className="h-5 w-96 max-w-full bg-white/10" />
        <Skeleton className="h-6 w-32 rounded-full bg-white/10" />
      </div>
      <div className="grid gap-6 md:grid-cols-2">
        <Skeleton className="h-72 bg-white/[0.06]" />
        <Skeleton className="h-72 bg-white/[0.06]" />
      </div>
      <HowToUse />
    </PublicShell>
  );
}
