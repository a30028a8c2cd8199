/**
 * The web app's pages, read by the client router (web/routes.tsx builds its route table from them)
 * and by the server (server/plugins/web-app.ts), which answers any other path with a 404. One list,
 * so a page the router shows is never a 404 on the server, and a path it does not know never a 200.
 */

/** The public pages, each an exact path. */
export const PUBLIC_PAGE_PATHS = ['/', '/buyer', '/scripts', '/script'] as const;

export const ADMIN_LOGIN_PATH = '/admin/login';

/** The admin console's root: it shows the dashboard. */
export const ADMIN_ROOT_PATH = '/admin';

/** Each admin screen by name, with its path under /admin (one segment). */
export const ADMIN_SCREEN_SEGMENTS = {
  dashboard: 'dashboard',
  licenseKeys: 'license-keys',
  systemConfiguration: 'system-configuration',
  scriptManagement: 'script-management',
  fileManager: 'file-manager',
  scriptsPageEditor: 'scripts-page-editor',
  redemptionKeys: 'redemption-keys',
  scriptKeys: 'script-keys',
  hardwareBindings: 'hardware-bindings',
  security: 'security',
  serverPool: 'server-pool',
  liveMonitoring: 'live-monitoring',
  liveConfiguration: 'configuration',
  aiDebugging: 'ai-debugging',
} as const;

export type AdminScreenName = keyof typeof ADMIN_SCREEN_SEGMENTS;

/** Every path the client router shows a page of its own at. */
export const WEB_PAGE_PATHS: readonly string[] = [
  ...PUBLIC_PAGE_PATHS,
  ADMIN_LOGIN_PATH,
  ADMIN_ROOT_PATH,
  ...Object.values(ADMIN_SCREEN_SEGMENTS).map((segment) => `${ADMIN_ROOT_PATH}/${segment}`),
];

const knownPaths = new Set(WEB_PAGE_PATHS);

/**
 * Whether the client router shows a page of its own at `pathname` (no query string), matching as
 * React Router does: case-insensitively, percent-decoded, with or without a trailing slash.
 */
export function isWebPagePath(pathname: string): boolean {
  let decoded: string;
  try {
    // Segment by segment, an encoded slash staying one, as the router decodes (so /admin%2Fdashboard is no page).
    decoded = pathname
      .split('/')
      .map((segment) => decodeURIComponent(segment).replaceAll('/', '%2F'))
      .join('/');
  } catch {
    return false;
  }
  const normalized = decoded.length > 1 ? decoded.replace(/\/+$/, '') : decoded;
  return knownPaths.has((normalized || '/').toLowerCase());
}
