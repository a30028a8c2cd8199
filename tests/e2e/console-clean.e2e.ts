import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN_LOGIN_PATH, ADMIN_ROOT_PATH, WEB_PAGE_PATHS } from '../../common/web-routes.ts';
import { ORDER_PAGE_EXAMPLE, useBrowserSuite } from './harness.ts';
import { signIn } from './realistic-data.ts';

/*
 * A normal visit to any page leaves DevTools quiet: no console error or warning, no uncaught exception
 * and no Content-Security-Policy violation (zod's `new Function` probe was one on every page, and the
 * Permissions-Policy's "Unrecognized feature: 'bluetooth'" and 'web-share' warnings were two).
 */

const isAdminScreen = (path: string) =>
  path !== ADMIN_LOGIN_PATH && (path === ADMIN_ROOT_PATH || path.startsWith(`${ADMIN_ROOT_PATH}/`));

/**
 * Starts recording what a visitor's DevTools would show as a problem on `page`: console errors and
 * warnings, uncaught exceptions and CSP violations (reported from inside each page by an init script).
 * Returns the list, which fills in as the page runs.
 */
async function recordProblems(page: Page): Promise<string[]> {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`console ${message.type()}: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  await page.exposeFunction('reportCspViolation', (text: string) => problems.push(`CSP violation: ${text}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation(text: string): void }).reportCspViolation;
      report(`${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} in ${event.sourceFile}`);
    });
  });
  return problems;
}

/** Opens each path and lets it finish loading (its code, its data); returns the problems per path. */
async function visit(page: Page, paths: readonly string[]): Promise<Record<string, string[]>> {
  const problems = await recordProblems(page);
  const found: Record<string, string[]> = {};
  for (const path of paths) {
    const before = problems.length;
    await page.goto(path, { waitUntil: 'networkidle' });
    found[path] = problems.slice(before);
  }
  return found;
}

/**
 * What the spec has a signed-out visit to the login page fetch: its session check is the dashboard's
 * stats call, whose 401 means "signed out", and Chromium logs every 4xx answer it fetches.
 */
const isSignedOutSessionCheck = (problem: string) =>
  /^console error: Failed to load resource: .* 401 \(Unauthorized\) \(\S+\/api\/admin\/dashboard\/stats\)$/.test(
    problem,
  );

const noProblems = (paths: readonly string[]) => Object.fromEntries(paths.map((path) => [path, []]));

describe('every page, visited normally', () => {
  const suite = useBrowserSuite();

  it('logs nothing wrong on the public pages and the login page', async () => {
    // An order page stands for every /order/{id}.
    const paths = [...WEB_PAGE_PATHS.filter((path) => !isAdminScreen(path)), ORDER_PAGE_EXAMPLE];
    expect(paths).toContain('/');
    expect(paths).toContain(ADMIN_LOGIN_PATH);
    const found = await visit(suite.page, paths);
    found[ADMIN_LOGIN_PATH] = found[ADMIN_LOGIN_PATH]!.filter((problem) => !isSignedOutSessionCheck(problem));
    expect(found).toEqual(noProblems(paths));
  });

  it('logs nothing wrong on any admin screen, signed in', async () => {
    const paths = WEB_PAGE_PATHS.filter(isAdminScreen);
    expect(paths).toContain('/admin/dashboard');
    await signIn(suite.page, suite.server.url);
    expect(await visit(suite.page, paths)).toEqual(noProblems(paths));
  });
});
