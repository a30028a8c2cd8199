import { existsSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isWebPagePath, PUBLIC_NOT_FOUND_PAGE, publicPageAt } from '../../common/web-routes.ts';

/** Vite names every file it writes under assets/ after its content: a new build gets new names. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** Everything else (the HTML, whose asset links change with each build; favicon, robots.txt): revalidate. */
export const REVALIDATE_CACHE = 'no-cache';

const COMPRESSED_COPY = /\.(br|gz)$/;

/**
 * The Cache-Control for a file of the built app, by its path inside the build (a compressed copy
 * counts as the file it is a copy of).
 */
export function cacheControlFor(pathInBuild: string): string {
  const path = pathInBuild.split(sep).join('/').replace(COMPRESSED_COPY, '');
  return path.startsWith('assets/') && !path.endsWith('.html') ? IMMUTABLE_CACHE : REVALIDATE_CACHE;
}

/** Source maps stay private (they hold the whole web source), even from a build that made them. */
const isSourceMap = (path: string) => path.toLowerCase().endsWith('.map');

function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

/** A browser navigating (it asks for HTML), as opposed to a script or a tool asking for data. */
function acceptsHtml(request: FastifyRequest): boolean {
  return /\btext\/html\b|\bapplication\/xhtml\+xml\b/i.test(request.headers.accept ?? '');
}

function notFound(request: FastifyRequest, reply: FastifyReply, path: string) {
  // HEAD is GET without the body: the same text, so the same Content-Length.
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  return reply.status(404).send({ error: `Not found: ${method} ${path}` });
}

/** A prerendered public page's file inside the build (build/prerender.ts writes them). */
const prerenderedPage = (name: string) => `prerendered/${name}.html`;

/**
 * Serves the built React app as a CDN would: each file in the best compressed copy the browser
 * accepts (the build writes .br and .gz beside it), with `Vary: Accept-Encoding`, content-hashed
 * assets cached for a year and the HTML revalidated. The public pages (common/web-routes.ts) get
 * their prerendered HTML, the console's index.html; any other path is a 404: the public not-found
 * page for a browser, `{error}` JSON otherwise. API paths, other methods and source maps are always
 * JSON 404s.
 */
export async function registerWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  const root = resolve(webDist);
  const hasWeb = existsSync(resolve(root, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root,
      // One route per file, listed at start (the build does not change under a running server).
      wildcard: false,
      index: false,
      preCompressed: true,
      // The compressed copies are chosen by Accept-Encoding, never asked for by name.
      // The prerendered pages are sent for their paths only (below), never at a URL of their own.
      globIgnore: ['**/*.map', '**/*.br', '**/*.gz', 'prerendered/**'],
      allowedPath: (path) => !isSourceMap(path),
      cacheControl: false,
      setHeaders: (reply, path) => {
        reply.header('cache-control', cacheControlFor(relative(root, path)));
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const isRead = request.method === 'GET' || request.method === 'HEAD';
    if (!hasWeb || !isRead || isApiPath(path) || isSourceMap(path)) return notFound(request, reply, path);
    const publicPage = publicPageAt(path);
    if (publicPage) return reply.sendFile(prerenderedPage(publicPage));
    if (isWebPagePath(path)) return reply.sendFile('index.html');
    if (!acceptsHtml(request)) return notFound(request, reply, path);
    // Under /admin the console shows its own not-found screen; elsewhere the public site's page. A page
    // under a 404 has no validators or ranges, which would turn it into a bodiless 304/206.
    const page = path.toLowerCase().startsWith('/admin/')
      ? 'index.html'
      : prerenderedPage(PUBLIC_NOT_FOUND_PAGE);
    return reply.status(404).sendFile(page, { etag: false, lastModified: false, acceptRanges: false });
  });
}
