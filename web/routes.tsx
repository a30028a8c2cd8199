import { Suspense, useEffect } from 'react';
import { createRoutesFromElements, Outlet, Route, useRouteError } from 'react-router';
import { ErrorBoundary } from '@/components/error-boundary.tsx';
import { lazyScreen } from '@/components/lazy-screen.tsx';
import { PageLoader } from '@/components/page-loader.tsx';
import { AdminNotFound } from '@/pages/admin/shell/admin-not-found.tsx';
import { BuyerPage } from '@/pages/public/buyer.tsx';
import { LandingPage } from '@/pages/public/landing.tsx';
import { NotFoundPage } from '@/pages/public/not-found.tsx';
import { ScriptsPage } from '@/pages/public/scripts.tsx';

// The admin console is split away from the public bundle: visitors never download it. Each screen
// is a chunk of its own, fetched on demand and again after a failed fetch (see lazyScreen).
const adminLayout = lazyScreen(() => import('@/pages/admin/shell/admin-layout.tsx'));
const adminLogin = lazyScreen(() => import('@/pages/admin/shell/login.tsx'));
const adminScreens = {
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
  aiDebugging: lazyScreen(() => import('@/pages/admin/ai-debugging/ai-debugging.tsx')),
};

/**
 * The admin shell, which fetches every screen's code once it is in: a screen first opened during
 * an outage then opens anyway, and the outage banner stays the only sign of the outage.
 */
function AdminConsole() {
  useEffect(() => {
    for (const screen of Object.values(adminScreens)) void screen.preload();
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

/**
 * The spec's route table, for a data router (createBrowserRouter in main.tsx): screens block
 * navigation away from unsaved edits with useBlocker, which needs one. Screens that later work
 * builds fall through to the not-found page until then; under /admin that page stays in the console.
 */
export const appRoutes = createRoutesFromElements(
  <Route element={<Outlet />} errorElement={<RethrowRouteError />}>
    <Route path="/" element={page(<LandingPage />)} />
    <Route path="/buyer" element={page(<BuyerPage />)} />
    <Route path="/scripts" element={page(<ScriptsPage />)} />
    <Route path="/script" element={page(<ScriptsPage />)} />
    <Route path="/admin/login" element={page(<adminLogin.Screen />)} />
    <Route path="/admin" element={page(<AdminConsole />)}>
      <Route index element={page(<adminScreens.dashboard.Screen />)} />
      <Route path="dashboard" element={page(<adminScreens.dashboard.Screen />)} />
      <Route path="license-keys" element={page(<adminScreens.licenseKeys.Screen />)} />
      <Route path="system-configuration" element={page(<adminScreens.systemConfiguration.Screen />)} />
      <Route path="script-management" element={page(<adminScreens.scriptManagement.Screen />)} />
      <Route path="file-manager" element={page(<adminScreens.fileManager.Screen />)} />
      <Route path="scripts-page-editor" element={page(<adminScreens.scriptsPageEditor.Screen />)} />
      <Route path="redemption-keys" element={page(<adminScreens.redemptionKeys.Screen />)} />
      <Route path="script-keys" element={page(<adminScreens.scriptKeys.Screen />)} />
      <Route path="hardware-bindings" element={page(<adminScreens.hardwareBindings.Screen />)} />
      <Route path="security" element={page(<adminScreens.security.Screen />)} />
      <Route path="server-pool" element={page(<adminScreens.serverPool.Screen />)} />
      <Route path="live-monitoring" element={page(<adminScreens.liveMonitoring.Screen />)} />
      <Route path="configuration" element={page(<adminScreens.liveConfiguration.Screen />)} />
      <Route path="ai-debugging" element={page(<adminScreens.aiDebugging.Screen />)} />
      <Route path="*" element={<AdminNotFound />} />
    </Route>
    <Route path="*" element={<NotFoundPage />} />
  </Route>,
);
