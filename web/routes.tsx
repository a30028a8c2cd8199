import { lazy, Suspense } from 'react';
import { createRoutesFromElements, Outlet, Route, useRouteError } from 'react-router';
import { ErrorBoundary } from '@/components/error-boundary.tsx';
import { PageLoader } from '@/components/page-loader.tsx';
import { AdminNotFound } from '@/pages/admin/shell/admin-not-found.tsx';
import { BuyerPage } from '@/pages/public/buyer.tsx';
import { LandingPage } from '@/pages/public/landing.tsx';
import { NotFoundPage } from '@/pages/public/not-found.tsx';
import { ScriptsPage } from '@/pages/public/scripts.tsx';

// The admin console is split away from the public bundle: visitors never download it.
const AdminLayout = lazy(() => import('@/pages/admin/shell/admin-layout.tsx'));
const AdminLoginPage = lazy(() => import('@/pages/admin/shell/login.tsx'));
const DashboardPage = lazy(() => import('@/pages/admin/dashboard/dashboard.tsx'));
const LicenseKeysPage = lazy(() => import('@/pages/admin/license-keys/license-keys.tsx'));
const SystemConfigurationPage = lazy(
  () => import('@/pages/admin/system-configuration/system-configuration.tsx'),
);
const ScriptManagementPage = lazy(() => import('@/pages/admin/script-management/script-management.tsx'));
const FileManagerPage = lazy(() => import('@/pages/admin/file-manager/file-manager.tsx'));
const ScriptsPageEditorPage = lazy(() => import('@/pages/admin/scripts-page-editor/scripts-page-editor.tsx'));
const RedemptionKeysPage = lazy(() => import('@/pages/admin/redemption-codes/redemption-keys.tsx'));
const ScriptKeysPage = lazy(() => import('@/pages/admin/script-keys/script-keys.tsx'));
const HardwareBindingsPage = lazy(() => import('@/pages/admin/hardware-bindings/hardware-bindings.tsx'));
const SecurityPage = lazy(() => import('@/pages/admin/security/security.tsx'));
const ServerPoolPage = lazy(() => import('@/pages/admin/server-pool/server-pool.tsx'));
const LiveMonitoringPage = lazy(() => import('@/pages/admin/live-monitoring/live-monitoring.tsx'));
const LiveConfigurationPage = lazy(() => import('@/pages/admin/live-configuration/live-configuration.tsx'));
const AiDebuggingPage = lazy(() => import('@/pages/admin/ai-debugging/ai-debugging.tsx'));

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
    <Route path="/admin/login" element={page(<AdminLoginPage />)} />
    <Route path="/admin" element={page(<AdminLayout />)}>
      <Route index element={page(<DashboardPage />)} />
      <Route path="dashboard" element={page(<DashboardPage />)} />
      <Route path="license-keys" element={page(<LicenseKeysPage />)} />
      <Route path="system-configuration" element={page(<SystemConfigurationPage />)} />
      <Route path="script-management" element={page(<ScriptManagementPage />)} />
      <Route path="file-manager" element={page(<FileManagerPage />)} />
      <Route path="scripts-page-editor" element={page(<ScriptsPageEditorPage />)} />
      <Route path="redemption-keys" element={page(<RedemptionKeysPage />)} />
      <Route path="script-keys" element={page(<ScriptKeysPage />)} />
      <Route path="hardware-bindings" element={page(<HardwareBindingsPage />)} />
      <Route path="security" element={page(<SecurityPage />)} />
      <Route path="server-pool" element={page(<ServerPoolPage />)} />
      <Route path="live-monitoring" element={page(<LiveMonitoringPage />)} />
      <Route path="configuration" element={page(<LiveConfigurationPage />)} />
      <Route path="ai-debugging" element={page(<AiDebuggingPage />)} />
      <Route path="*" element={<AdminNotFound />} />
    </Route>
    <Route path="*" element={<NotFoundPage />} />
  </Route>,
);
