import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADMIN_LOGIN_PATH } from '../../common/web-routes.ts';
import { E2E_DIST, useBrowserSuite } from './harness.ts';

/*
 * Issue 39: /admin/login's largest paint came at 2.67 s on Lighthouse's phone, because the form's code
 * was a chunk of its own that the browser only asked for once the console's entry had run, and a
 * third of it was zod. The form now paints from what the page's HTML links: nothing it needs waits
 * for a script to run before it is fetched, and none of it is zod.
 */

/** The scripts the HTML links (the entry and its modulepreloads): fetched at once, beside each other. */
function linkedScripts(html: string): Set<string> {
  const links = html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+\.js)"/g);
  return new Set([...links].map((link) => link[1] as string));
}

/** The source files a built script was made from, read from its (never served) source map. */
function sourcesOf(path: string): string[] {
  const map = `${join(E2E_DIST, 'web', path)}.map`;
  if (!existsSync(map)) return [];
  return (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources;
}

describe('the admin login page', () => {
  const suite = useBrowserSuite();

  it('paints its form from the scripts its HTML links, none of them zod', async () => {
    const { page } = suite;
    const html = await (
      await fetch(`${suite.server.url}${ADMIN_LOGIN_PATH}`, { headers: { accept: 'text/html' } })
    ).text();
    const linked = linkedScripts(html);
    expect(linked.size).toBeGreaterThan(0);

    const fetched: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') fetched.push(new URL(request.url()).pathname);
    });
    await page.goto(ADMIN_LOGIN_PATH);
    await page.getByText('Enter the admin secret to open the control panel.').waitFor();
    const beforeTheForm = [...fetched];

    expect(beforeTheForm.filter((path) => !linked.has(path))).toEqual([]);
    const zod = beforeTheForm.filter((path) =>
      sourcesOf(path).some((source) => /node_modules\/zod\//.test(source)),
    );
    expect(zod).toEqual([]);
  });
});
