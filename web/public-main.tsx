import { hydrateRoot } from 'react-dom/client';
import { createQueryClient } from '@/lib/api.ts';
import { isPrerenderedPage, loadPublicPage, PublicApp } from './public-app.tsx';
import './styles.css';

// The public pages' entry (web/public.html). The build prerenders each page's HTML and names the page on
// #root; the browser takes it over here, then fetches the live figures. Built with Preact in React's
// place (vite.public.config.ts), so a phone downloads a fraction of the console's code.
const root = document.getElementById('root')!;
const page = root.dataset.page;
if (isPrerenderedPage(page)) {
  void loadPublicPage(page).then((Page) =>
    hydrateRoot(root, <PublicApp Page={Page} queryClient={createQueryClient()} />),
  );
}
