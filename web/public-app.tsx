import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ErrorBoundary } from '@/components/error-boundary.tsx';
import { Toaster } from '@/components/toaster.tsx';
import { BuyerPage } from '@/pages/public/buyer.tsx';
import { LandingPage } from '@/pages/public/landing.tsx';
import { NotFoundPage } from '@/pages/public/not-found.tsx';
import { ScriptsPage } from '@/pages/public/scripts.tsx';
import type { PrerenderedPageName } from '../common/web-routes.ts';

const PAGES: Record<PrerenderedPageName, () => React.ReactNode> = {
  landing: LandingPage,
  buyer: BuyerPage,
  scripts: ScriptsPage,
  'not-found': NotFoundPage,
};

/**
 * One public page, as the build prerenders it (web/public-prerender.tsx) and the browser hydrates it
 * (web/public-main.tsx). No router: each public page is a document of its own, linked by plain links.
 */
export function PublicApp({ page, queryClient }: { page: PrerenderedPageName; queryClient: QueryClient }) {
  const Page = PAGES[page];
  return (
    <QueryClientProvider client={queryClient}>
      <ErrorBoundary level="page">
        <Page />
      </ErrorBoundary>
      <Toaster />
    </QueryClientProvider>
  );
}

/** Whether `name` is a page PublicApp shows (the prerendered HTML names its page on #root). */
export function isPrerenderedPage(name: string | undefined): name is PrerenderedPageName {
  return name !== undefined && Object.hasOwn(PAGES, name);
}
