import { renderToString } from 'react-dom/server';
import { createQueryClient } from '@/lib/api.ts';
import type { PrerenderedPageName } from '../common/web-routes.ts';
import { loadPublicPage, PublicApp } from './public-app.tsx';

/**
 * A public page's HTML as the build writes it (build/prerender.ts): its layout and texts, with the live
 * figures in their loading state (nothing is fetched here), which the browser fills in once hydrated.
 */
export async function renderPublicPage(name: PrerenderedPageName): Promise<string> {
  const Page = await loadPublicPage(name);
  return renderToString(<PublicApp Page={Page} queryClient={createQueryClient()} />);
}
