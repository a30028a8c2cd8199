import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The layout's rules, checked on the source tree (`npm test` runs this with the unit tests):
 * - plugins are cross-cutting: they never import a feature (features import plugins, not back);
 * - features import one way, from the bottom up: db < audit (security) < auth < the licensing
 *   entities < the loader < the screens' read models. A feature may import any lower layer.
 * - web/pages/admin holds one folder per screen and no loose files.
 */

const root = resolve(import.meta.dirname, '..');

/** Each feature's layer: a feature imports only from its own folder and lower layers. */
const FEATURE_LAYERS: Record<string, number> = {
  security: 1,
  auth: 2,
  system: 3,
  scripts: 3,
  licensing: 3,
  fleet: 3,
  'server-pool': 4,
  configuration: 4,
  redemption: 4,
  'script-keys': 5,
  bindings: 6,
  loader: 7,
  feed: 8,
  dashboard: 9,
  public: 9,
  health: 9,
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The repository-relative paths a file imports through relative specifiers. */
function relativeImports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const specifiers = [...source.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)].map((m) => m[1] ?? '');
  return specifiers.map((specifier) => relative(root, resolve(dirname(file), specifier)));
}

const featureOf = (path: string) => /^server\/features\/([^/]+)\//.exec(path)?.[1];
const isTest = (path: string) => /\.test\.tsx?$|\.fixtures\.ts$/.test(path);

describe('server layering', () => {
  const files = sourceFiles(join(root, 'server')).map((file) => relative(root, file));

  it('has a layer for every feature folder', () => {
    const folders = readdirSync(join(root, 'server/features'));
    expect(folders.filter((folder) => FEATURE_LAYERS[folder] === undefined)).toEqual([]);
  });

  it('never imports a feature from a plugin (its tests may use feature fixtures)', () => {
    const backwards = files
      .filter((file) => file.startsWith('server/plugins/') && !isTest(file))
      .flatMap((file) =>
        relativeImports(join(root, file))
          .filter((target) => target.startsWith('server/features/'))
          .map((target) => `${file} -> ${target}`),
      );
    expect(backwards).toEqual([]);
  });

  it('imports features only from their own or a lower layer (tests may reach anywhere)', () => {
    const upwards = files
      .filter((file) => featureOf(file) && !isTest(file))
      .flatMap((file) => {
        const from = featureOf(file) as string;
        return relativeImports(join(root, file))
          .filter((target) => {
            const to = featureOf(target);
            if (!to || to === from) return false;
            return (FEATURE_LAYERS[to] ?? 99) >= (FEATURE_LAYERS[from] ?? 0);
          })
          .map((target) => `${file} -> ${target}`);
      });
    expect(upwards).toEqual([]);
  });

  it('keeps migrations frozen: they import nothing from server/features or common/', () => {
    const live = files
      .filter((file) => file.startsWith('server/db/migrations/'))
      .flatMap((file) =>
        relativeImports(join(root, file))
          .filter((target) => target.startsWith('server/features/') || target.startsWith('common/'))
          .map((target) => `${file} -> ${target}`),
      );
    expect(live).toEqual([]);
  });
});

describe('web layout', () => {
  it('keeps web/pages/admin to one folder per screen, with no loose files', () => {
    const admin = join(root, 'web/pages/admin');
    const loose = readdirSync(admin).filter((name) => !statSync(join(admin, name)).isDirectory());
    expect(loose).toEqual([]);
  });
});

describe('file size', () => {
  /*
   * One job per file keeps a file short. Only server/features/fleet holds to it so far; other
   * long files (configuration, server-pool, analysis, the batch writer) are still to be split.
   */
  const LIMIT = 300;

  it(`keeps every non-test source file in server/features/fleet to ${LIMIT} lines or fewer`, () => {
    const long = sourceFiles(join(root, 'server/features/fleet'))
      .map((file) => relative(root, file))
      .filter((file) => !isTest(file))
      .map((file) => ({ file, lines: readFileSync(join(root, file), 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > LIMIT)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });
});
