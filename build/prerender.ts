import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { OutputBundle } from 'rolldown';
import { build, type InlineConfig, type Plugin } from 'vite';
import {
  type PrerenderedPageName,
  PUBLIC_NOT_FOUND_PAGE,
  PUBLIC_PAGE_TITLES,
  PUBLIC_PAGES,
} from '../common/web-routes.ts';
import { compressionSummary, precompressFiles } from './precompress.ts';

/** Where the server finds each prerendered page, inside the web build. */
export const PRERENDERED_DIR = 'prerendered';

const PAGE_NAMES = [...Object.keys(PUBLIC_PAGES), PUBLIC_NOT_FOUND_PAGE] as PrerenderedPageName[];

/**
 * The chunks a page needs beyond the entry, for `<link rel="modulepreload">`: the chunk of its module
 * (`pages/public/<page>.tsx`, see web/public-app.tsx) and the chunks that one imports, so they download
 * beside the entry instead of after it has run.
 */
function pageChunks(bundle: OutputBundle, page: string): string[] {
  const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
  const pageChunk = chunks.find((chunk) =>
    chunk.facadeModuleId?.replaceAll('\\', '/').endsWith(`/pages/public/${page}.tsx`),
  );
  if (!pageChunk) throw new Error(`no chunk holds pages/public/${page}.tsx`);
  const entries = new Set(
    chunks.filter((chunk) => chunk.isEntry).flatMap((chunk) => [chunk.fileName, ...chunk.imports]),
  );
  const needed = new Set<string>();
  const visit = (fileName: string) => {
    if (needed.has(fileName) || entries.has(fileName)) return;
    needed.add(fileName);
    for (const imported of chunks.find((chunk) => chunk.fileName === fileName)?.imports ?? [])
      visit(imported);
  };
  visit(pageChunk.fileName);
  return [...needed];
}

/** The template's empty root, which each page's HTML fills. */
const ROOT_PLACEHOLDER = '<div id="root"><!--page--></div>';

/** The template's title, which each page replaces with its own (common/web-routes.ts). */
const TITLE_ELEMENT = /<title>[^<]*<\/title>/;

/** A title as HTML text: `&` and `<` escaped (a page's title has no other markup). */
const htmlText = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;');

interface Options {
  /** The built HTML template (in the output directory), removed once the pages are written. */
  template: string;
  /** The module exporting renderPublicPage(page), built for Node with `ssrConfig`. */
  entry: string;
  /** The config the page module is built with for Node (the same aliases as the browser build). */
  ssrConfig: InlineConfig;
}

/**
 * Vite plugin for the public entry: once the browser bundle is written, builds the page module for
 * Node, renders every public page into a copy of the built template (so each carries its hashed
 * script and style links) at `prerendered/<page>.html`, and compresses what this build wrote.
 */
export function prerender({ template, entry, ssrConfig }: Options): Plugin {
  let outDir = '';
  let bundle: OutputBundle = {};
  return {
    name: 'scanline:prerender',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    writeBundle(_options, written) {
      bundle = written;
    },
    async closeBundle() {
      const ssrOutDir = await mkdtemp(join(tmpdir(), 'scanline-prerender-'));
      try {
        await build({
          ...ssrConfig,
          configFile: false,
          // Its warnings are the browser build's again ("use client" directives and the like).
          logLevel: 'error',
          // Bundled whole, so React's imports in every package resolve to Preact as in the browser.
          ssr: { noExternal: true },
          build: {
            ssr: entry,
            outDir: ssrOutDir,
            emptyOutDir: true,
            rollupOptions: { output: { entryFileNames: 'prerender.mjs' } },
          },
        });
        const { renderPublicPage } = (await import(pathToFileURL(join(ssrOutDir, 'prerender.mjs')).href)) as {
          renderPublicPage(page: PrerenderedPageName): Promise<string>;
        };
        const html = await readFile(join(outDir, template), 'utf8');
        if (!html.includes(ROOT_PLACEHOLDER)) throw new Error(`${template} has no ${ROOT_PLACEHOLDER}`);
        if (!TITLE_ELEMENT.test(html)) throw new Error(`${template} has no <title>`);
        await mkdir(join(outDir, PRERENDERED_DIR), { recursive: true });
        const pages = await Promise.all(
          PAGE_NAMES.map(async (page) => {
            const root = `<div id="root" data-page="${page}">${await renderPublicPage(page)}</div>`;
            const preloads = pageChunks(bundle, page).map(
              (chunk) => `<link rel="modulepreload" crossorigin href="/${chunk}">`,
            );
            const file = `${PRERENDERED_DIR}/${page}.html`;
            await writeFile(
              join(outDir, file),
              html
                .replace(TITLE_ELEMENT, () => `<title>${htmlText(PUBLIC_PAGE_TITLES[page])}</title>`)
                .replace(ROOT_PLACEHOLDER, root)
                .replace('</head>', `  ${preloads.join('\n    ')}\n  </head>`),
            );
            return file;
          }),
        );
        // The bare template is no page of the site.
        await rm(join(outDir, template));
        const kept = Object.keys(bundle).filter((file) => file !== template);
        this.info(compressionSummary(await precompressFiles(outDir, [...kept, ...pages])));
      } finally {
        await rm(ssrOutDir, { recursive: true, force: true });
      }
    },
  };
}
