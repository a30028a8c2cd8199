import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The text files worth compressing. Source maps are left out: the server never serves them. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/i;

export interface CompressedFile {
  /** Path inside the directory, with '/' separators. */
  file: string;
  bytes: number;
  gzipBytes: number;
  brotliBytes: number;
}

async function filesUnder(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(join(dir, prefix), { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const path = prefix ? `${prefix}/${entry.name}` : entry.name;
      return entry.isDirectory() ? filesUnder(dir, path) : Promise.resolve([path]);
    }),
  );
  return nested.flat();
}

/**
 * Writes `FILE.br` (Brotli at its best quality) and `FILE.gz` (gzip level 9) beside every text file
 * under `dir`, so the server sends them as they are instead of compressing on each request. A copy
 * that would not be smaller is not written (the server then sends the file itself).
 */
export async function precompressDirectory(dir: string): Promise<CompressedFile[]> {
  return precompressFiles(dir, await filesUnder(dir));
}

/** precompressDirectory for the given files under `dir` only (paths inside it, '/'-separated). */
export async function precompressFiles(dir: string, paths: string[]): Promise<CompressedFile[]> {
  const files = paths.filter((file) => COMPRESSIBLE.test(file));
  return Promise.all(
    files.map(async (file) => {
      const path = join(dir, file);
      const content = await readFile(path);
      const [br, gz] = await Promise.all([
        brotli(content, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        }),
        gzipAsync(content, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      if (br.length < content.length) await writeFile(`${path}.br`, br);
      if (gz.length < content.length) await writeFile(`${path}.gz`, gz);
      return { file, bytes: content.length, gzipBytes: gz.length, brotliBytes: br.length };
    }),
  );
}

/** Vite plugin: compresses the build's text files once everything is written (public/ included). */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'scanline:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      this.info(compressionSummary(await precompressDirectory(outDir)));
    },
  };
}

/** One line on what was compressed: how many files, and their sizes as they are, gzipped and brotli'd. */
export function compressionSummary(files: CompressedFile[]): string {
  const total = (pick: (f: CompressedFile) => number) =>
    Math.round(files.reduce((sum, f) => sum + pick(f), 0) / 1024);
  return `compressed ${files.length} files: ${total((f) => f.bytes)} KB, gzip ${total((f) => f.gzipBytes)} KB, brotli ${total((f) => f.brotliBytes)} KB`;
}
