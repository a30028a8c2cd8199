/**
 * The web app's pages, read by the client router (web/routes.tsx builds its route table from them)
 * and by the server (server/plugins/web-app.ts), which answers any other path with a 404. One list,
 * so a page the router shows is never a 404 on the server, and a path it does not know never a 200.
 */

/**
 * The public pages by name, each with its paths. They are a light entry of their own (web/public-main.tsx),
 * prerendered at build time to `prerendered/<name>.html`, which the server sends for those paths.
 */
export const PUBLIC_PAGES = {
  landing: ['/'],
  buyer: ['/buyer'],
  scripts: ['/scripts', '/script'],
  key: ['/key'],
  order: [],
} as const;

/** Public pages at a path with a parameter: `/order/{id}` (its secret follows in the fragment). */
const PUBLIC_PAGE_PREFIXES: ReadonlyArray<[prefix: string, page: PublicPageName]> = [['/order/', 'order']];

/** One path segment of URL-safe characters: what an order id may look like in a page path. */
const PARAMETER = /^[a-z0-9_-]{1,64}$/;

export type PublicPageName = keyof typeof PUBLIC_PAGES;

/** The public site's page for any path that is no page (prerendered too; the server sends it with a 404). */
export const PUBLIC_NOT_FOUND_PAGE = 'not-found';

/** The name of each prerendered public page: the server finds it at `prerendered/<name>.html`. */
export type PrerenderedPageName = PublicPageName | typeof PUBLIC_NOT_FOUND_PAGE;

/** The public pages, each an exact path. */
export const PUBLIC_PAGE_PATHS = Object.values(PUBLIC_PAGES).flat();

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
  notifications: 'notifications',
  orders: 'orders',
  aiDebugging: 'ai-debugging',
} as const;

export type AdminScreenName = keyof typeof ADMIN_SCREEN_SEGMENTS;

/** What every page's title ends with, so a tab or a history entry reads "Live Monitoring · Scanline". */
export const SITE_TITLE = 'Scanline';

/** A page's document title: its own name, then the site's. */
export const pageTitle = (name: string): string => `${name} · ${SITE_TITLE}`;

/** The not-found page's title, the public site's and the console's alike. */
export const NOT_FOUND_TITLE = pageTitle('Page Not Found');

/** Each public page's title, written into its prerendered HTML (build/prerender.ts). */
export const PUBLIC_PAGE_TITLES: Record<PrerenderedPageName, string> = {
  landing: `${SITE_TITLE} · Live pet finds`,
  buyer: pageTitle('Buy Premium'),
  scripts: pageTitle('Scripts'),
  key: pageTitle('My Key'),
  order: pageTitle('Your Order'),
  [PUBLIC_NOT_FOUND_PAGE]: NOT_FOUND_TITLE,
};

export const ADMIN_LOGIN_TITLE = pageTitle('Admin Login');

/** Each admin screen's title (the console's route table sets it, web/routes.tsx), named as the sidebar names it. */
export const ADMIN_SCREEN_TITLES: Record<AdminScreenName, string> = {
  dashboard: pageTitle('Dashboard'),
  licenseKeys: pageTitle('License Keys'),
  systemConfiguration: pageTitle('System Configuration'),
  scriptManagement: pageTitle('Script Management'),
  fileManager: pageTitle('File Manager'),
  scriptsPageEditor: pageTitle('Scripts Page Editor'),
  redemptionKeys: pageTitle('Redemption Codes'),
  scriptKeys: pageTitle('Script Keys'),
  hardwareBindings: pageTitle('Hardware Bindings'),
  security: pageTitle('Security & Analytics'),
  serverPool: pageTitle('Server Pool'),
  liveMonitoring: pageTitle('Live Monitoring'),
  liveConfiguration: pageTitle('Live Configuration'),
  notifications: pageTitle('Notifications'),
  orders: pageTitle('Orders'),
  aiDebugging: pageTitle('AI Debugging'),
};

/** Every path the client router shows a page of its own at. */
export const WEB_PAGE_PATHS: readonly string[] = [
  ...PUBLIC_PAGE_PATHS,
  ADMIN_LOGIN_PATH,
  ADMIN_ROOT_PATH,
  ...Object.values(ADMIN_SCREEN_SEGMENTS).map((segment) => `${ADMIN_ROOT_PATH}/${segment}`),
];

const knownPaths = new Set(WEB_PAGE_PATHS);

const publicPageByPath = new Map<string, PublicPageName>(
  Object.entries(PUBLIC_PAGES).flatMap(([name, paths]) =>
    paths.map((path): [string, PublicPageName] => [path, name as PublicPageName]),
  ),
);

/**
 * `pathname` (no query string) as the router matches it: case-insensitively, percent-decoded, with or
 * without a trailing slash; null when it cannot be decoded.
 */
function normalizedPath(pathname: string): string | null {
  let decoded: string;
  try {
    // Segment by segment, an encoded slash staying one, as the router decodes (so /admin%2Fdashboard is no page).
    decoded = pathname
      .split('/')
      .map((segment) => decodeURIComponent(segment).replaceAll('/', '%2F'))
      .join('/');
  } catch {
    return null;
  }
  const trimmed = decoded.length > 1 ? decoded.replace(/\/+$/, '') : decoded;
  return (trimmed || '/').toLowerCase();
}

/** The page of a path with a parameter (`/order/{id}`), or null. */
function parameterPageAt(path: string): PublicPageName | null {
  for (const [prefix, page] of PUBLIC_PAGE_PREFIXES) {
    if (path.startsWith(prefix) && PARAMETER.test(path.slice(prefix.length))) return page;
  }
  return null;
}

/** Whether the web app shows a page of its own at `pathname` (no query string). */
export function isWebPagePath(pathname: string): boolean {
  const path = normalizedPath(pathname);
  return path !== null && (knownPaths.has(path) || parameterPageAt(path) !== null);
}

/** The public page shown at `pathname` (no query string), or null for the console's paths and unknown ones. */
export function publicPageAt(pathname: string): PublicPageName | null {
  const path = normalizedPath(pathname);
  return path === null ? null : (publicPageByPath.get(path) ?? parameterPageAt(path));
}
