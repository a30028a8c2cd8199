import { createRoot, hydrateRoot } from 'react-dom/client';
import { createQueryClient } from '@/lib/api.ts';
import { installRefAsProp } from '@/lib/preact-ref-as-prop.ts';
import { PUBLIC_NOT_FOUND_PAGE, publicPageAt } from '../common/web-routes.ts';
import { isPrerenderedPage, loadPublicPage, PublicApp } from './public-app.tsx';
import './styles.css';

// The public pages' entry (web/public.html). The build prerenders each page's HTML and names the page on
// #root; the browser takes it over here, then fetches the live figures. Built with Preact in React's
// place (vite.public.config.ts), so a phone downloads a fraction of the console's code.
installRefAsProp();
const root = document.getElementById('root')!;
const prerendered = root.dataset.page;
if (isPrerenderedPage(prerendered)) {
  void loadPublicPage(prerendered).then((Page) =>
    hydrateRoot(root, <PublicApp Page={Page} queryClient={createQueryClient()} />),
  );
} else {
  // `npm run dev:public` serves the bare template: the page is rendered here, from the address.
  void loadPublicPage(publicPageAt(location.pathname) ?? PUBLIC_NOT_FOUND_PAGE).then((Page) =>
    createRoot(root).render(<PublicApp Page={Page} queryClient={createQueryClient()} />),
  );
}
