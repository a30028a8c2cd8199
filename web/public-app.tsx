import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ErrorBoundary } from '@/components/error-boundary.tsx';
import { Toaster } from '@/components/toaster.tsx';
import type { PrerenderedPageName } from '../common/web-routes.ts';

export type PublicPage = () => React.ReactNode;

/**
 * Each prerendered page's code, a chunk of its own so a visit loads only its page. The build finds a
 * page's chunk by its module, `pages/public/<name>.tsx` (build/prerender.ts), and links it from the
 * page's HTML, so it downloads beside the entry rather than after it.
 */
const PAGES: Record<PrerenderedPageName, () => Promise<PublicPage>> = {
  landing: () => import('@/pages/public/landing.tsx').then((m) => m.LandingPage),
  buyer: () => import('@/pages/public/buyer.tsx').then((m) => m.BuyerPage),
  scripts: () => import('@/pages/public/scripts.tsx').then((m) => m.ScriptsPage),
  key: () => import('@/pages/public/key.tsx').then((m) => m.KeyPage),
  order: () => import('@/pages/public/order.tsx').then((m) => m.OrderPage),
  'not-found': () => import('@/pages/public/not-found.tsx').then((m) => m.NotFoundPage),
};

/** Whether `name` is a page PublicApp shows (the prerendered HTML names its page on #root). */
export function isPrerenderedPage(name: string | undefined): name is PrerenderedPageName {
  return name !== undefined && Object.hasOwn(PAGES, name);
}

export function loadPublicPage(name: PrerenderedPageName): Promise<PublicPage> {
  return PAGES[name]();
}

/**
 * One public page, as the build prerenders it (web/public-prerender.tsx) and the browser hydrates it
 * (web/public-main.tsx). No router: each public page is a document of its own, linked by plain links.
 */
export function PublicApp({ Page, queryClient }: { Page: PublicPage; queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ErrorBoundary level="page">
        <Page />
      </ErrorBoundary>
      <Toaster />
    </QueryClientProvider>
  );
}
