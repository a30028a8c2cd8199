import { Suspense, useEffect } from 'react';
import { createRoutesFromElements, Outlet, Route, useMatches, useRouteError } from 'react-router';
import { ErrorBoundary } from '@/components/error-boundary.tsx';
import { type LazyScreen, lazyScreen } from '@/components/lazy-screen.tsx';
import { PageLoader } from '@/components/page-loader.tsx';
import { preloadToaster } from '@/components/toaster.tsx';
// In the entry, unlike the screens: a visitor's first paint of the console, which would otherwise wait for
// the entry to run before even asking for its code (issue 39); the signed-out console shows its form too.
import AdminLoginPage from '@/pages/admin/shell/login.tsx';
import { NotFoundPage } from '@/pages/public/not-found.tsx';
import {
  ADMIN_LOGIN_PATH,
  ADMIN_LOGIN_TITLE,
  ADMIN_ROOT_PATH,
  ADMIN_SCREEN_SEGMENTS,
  ADMIN_SCREEN_TITLES,
  type AdminScreenName,
  NOT_FOUND_TITLE,
  SITE_TITLE,
} from '../common/web-routes.ts';

// The console's routes (web/index.html). The public pages are an entry of their own (web/public-main.tsx),
// which the server sends for their paths; links from here to them are plain links (a page load).
// Each screen is a chunk of its own, fetched on demand and again after a failed fetch (see lazyScreen).
const adminLayout = lazyScreen(() => import('@/pages/admin/shell/admin-layout.tsx'));
// In the shell's chunk: whenever the console is in, its not-found page is too.
const adminNotFound = lazyScreen(() =>
  import('@/pages/admin/shell/admin-layout.tsx').then((m) => ({ default: m.AdminNotFound })),
);
/** Every screen common/web-routes.ts names (the server answers 404 for any other path under /admin). */
const adminScreens: Record<AdminScreenName, LazyScreen> = {
  dashboard: lazyScreen(() => import('@/pages/admin/dashboard/dashboard.tsx')),
  licenseKeys: lazyScreen(() => import('@/pages/admin/license-keys/license-keys.tsx')),
  systemConfiguration: lazyScreen(
    () => import('@/pages/admin/system-configuration/system-configuration.tsx'),
  ),
  scriptManagement: lazyScreen(() => import('@/pages/admin/script-management/script-management.tsx')),
  fileManager: lazyScreen(() => import('@/pages/admin/file-manager/file-manager.tsx')),
  scriptsPageEditor: lazyScreen(() => import('@/pages/admin/scripts-page-editor/scripts-page-editor.tsx')),
  redemptionKeys: lazyScreen(() => import('@/pages/admin/redemption-codes/redemption-keys.tsx')),
  scriptKeys: lazyScreen(() => import('@/pages/admin/script-keys/script-keys.tsx')),
  hardwareBindings: lazyScreen(() => import('@/pages/admin/hardware-bindings/hardware-bindings.tsx')),
  security: lazyScreen(() => import('@/pages/admin/security/security.tsx')),
  serverPool: lazyScreen(() => import('@/pages/admin/server-pool/server-pool.tsx')),
  liveMonitoring: lazyScreen(() => import('@/pages/admin/live-monitoring/live-monitoring.tsx')),
  liveConfiguration: lazyScreen(() => import('@/pages/admin/live-configuration/live-configuration.tsx')),
  notifications: lazyScreen(() => import('@/pages/admin/notifications/notifications.tsx')),
  orders: lazyScreen(() => import('@/pages/admin/orders/orders.tsx')),
  aiDebugging: lazyScreen(() => import('@/pages/admin/ai-debugging/ai-debugging.tsx')),
};

/**
 * The admin shell, which fetches every screen's code (and the toasts') once it is in: a screen first opened during
 * an outage then opens anyway, and the outage banner stays the only sign of the outage.
 */
function AdminConsole() {
  useEffect(() => {
    for (const screen of Object.values(adminScreens)) void screen.preload();
    void preloadToaster();
  }, []);
  return <adminLayout.Screen />;
}

/** A page inside its own error boundary, so one broken screen never takes down the app. */
function page(element: React.ReactNode) {
  return (
    <ErrorBoundary level="page">
      <Suspense fallback={<PageLoader />}>{element}</Suspense>
    </ErrorBoundary>
  );
}

/**
 * Hands an error the router caught to the app's critical error boundary (main.tsx), as before the
 * data router: pages have boundaries of their own, so only a failure outside them gets here.
 */
function RethrowRouteError(): never {
  throw useRouteError();
}

/** What a page's route carries in its `handle`: the document title while the page is shown. */
export interface PageHandle {
  title: string;
}

const titled = (title: string): PageHandle => ({ title });

/**
 * The root of the route table: sets the document title from the deepest route that names one, as
 * soon as the route matches (before the screen's code has loaded), so each tab and history entry
 * says which screen it is.
 */
function TitledOutlet() {
  const matches = useMatches();
  const title =
    matches
      .map((match) => (match.handle as Partial<PageHandle> | undefined)?.title)
      .filter((found) => found !== undefined)
      .at(-1) ?? SITE_TITLE;
  useEffect(() => {
    document.title = title;
  }, [title]);
  return <Outlet />;
}

/**
 * The console's route table, for a data router (createBrowserRouter in main.tsx): screens block
 * navigation away from unsaved edits with useBlocker, which needs one. Any other path shows the
 * not-found page; under /admin that page stays in the console.
 */
export const appRoutes = createRoutesFromElements(
  <Route element={<TitledOutlet />} errorElement={<RethrowRouteError />}>
    <Route path={ADMIN_LOGIN_PATH} element={page(<AdminLoginPage />)} handle={titled(ADMIN_LOGIN_TITLE)} />
    <Route path={ADMIN_ROOT_PATH} element={page(<AdminConsole />)}>
      <Route
        index
        element={page(<adminScreens.dashboard.Screen />)}
        handle={titled(ADMIN_SCREEN_TITLES.dashboard)}
      />
      {Object.entries(ADMIN_SCREEN_SEGMENTS).map(([name, segment]) => {
        const screen = adminScreens[name as AdminScreenName];
        return (
          <Route
            key={segment}
            path={segment}
            element={page(<screen.Screen />)}
            handle={titled(ADMIN_SCREEN_TITLES[name as AdminScreenName])}
          />
        );
      })}
      <Route path="*" element={page(<adminNotFound.Screen />)} handle={titled(NOT_FOUND_TITLE)} />
    </Route>
    <Route path="*" element={<NotFoundPage />} handle={titled(NOT_FOUND_TITLE)} />
  </Route>,
);
