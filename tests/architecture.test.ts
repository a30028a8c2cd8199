import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The layout's rules, checked on the source tree (`npm test` runs this with the unit tests):
 * - plugins are cross-cutting: they never import a feature (features import plugins, not back);
 * - features import one way, from the bottom up: db < audit (security) < auth < the licensing
 *   entities < the loader < the screens' read models. A feature may import any lower layer.
 * - web/pages/admin holds one folder per screen and no loose files;
 * - web screens are rooms: a screen imports only web/components, web/lib, pages/admin/shared,
 *   common/ and itself; shared/ imports no screen; the shell (the app frame) imports no screen
 *   except the listeners it mounts app-wide; nothing imports the shell but the router;
 * - no import loop in server/, web/ or common/ (type imports count: a loop of types is a loop).
 * - server/realtime is a transport: it imports no feature (features register their protocols with
 *   it); services are reached through the one container (ctx.services), never through a WeakMap
 *   keyed by the context or a decoration on `app`.
 * - each feature folder has one entry module (`<area>/<area>.feature.ts`, server/feature.ts), and
 *   app.ts imports nothing else from server/features;
 * - every non-test source file in server/ has at most 300 lines.
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
  notifications: 4,
  configuration: 4,
  redemption: 4,
  'script-keys': 5,
  payments: 5,
  'key-status': 6,
  bindings: 7,
  loader: 8,
  feed: 9,
  discord: 9,
  dashboard: 10,
  public: 10,
  health: 10,
  alerts: 11,
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/**
 * The repository-relative paths a file imports through relative specifiers or the web's `@/` alias
 * (`import type`, `export … from` and `import()` included).
 */
function relativeImports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const specifiers = [...source.matchAll(/(?:from|import)\s*\(?\s*'((?:\.|@\/)[^']+)'/g)].map(
    (m) => m[1] ?? '',
  );
  return specifiers.map((specifier) =>
    specifier.startsWith('@/')
      ? join('web', specifier.slice(2))
      : relative(root, resolve(dirname(file), specifier)),
  );
}

const featureOf = (path: string) => /^server\/features\/([^/]+)\//.exec(path)?.[1];
const isTest = (path: string) => /\.test\.tsx?$|\.fixtures\.ts$/.test(path);
/** Tests, fixtures and the helpers only tests use (test-utils, web/test/). */
const isTestCode = (path: string) => isTest(path) || /test-utils\.tsx?$|^web\/test\//.test(path);

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

/** A feature's entry module: the one file app.ts imports from it (server/feature.ts). */
const entryOf = (feature: string) => `server/features/${feature}/${feature}.feature.ts`;

describe('feature entries: the folder is the registration', () => {
  const features = readdirSync(join(root, 'server/features'));
  const appImports = relativeImports(join(root, 'server/app.ts'));

  it('gives every feature folder one entry module, <area>/<area>.feature.ts', () => {
    const missing = features.filter((feature) => !existsSync(join(root, entryOf(feature))));
    expect(missing).toEqual([]);
  });

  it("imports from server/features into app.ts only each feature's entry, and every entry", () => {
    const internals = appImports.filter(
      (target) => featureOf(target) && target !== entryOf(featureOf(target) as string),
    );
    expect(internals).toEqual([]);
    expect(features.filter((feature) => !appImports.includes(entryOf(feature)))).toEqual([]);
  });
});

describe('server structure: realtime is a transport, features own their logic', () => {
  const files = sourceFiles(join(root, 'server'))
    .map((file) => relative(root, file))
    .filter((file) => !isTest(file) && !file.startsWith('server/test/'));

  it('keeps server/realtime free of features: they register their protocols with it', () => {
    const reaching = files
      .filter((file) => file.startsWith('server/realtime/'))
      .flatMap((file) =>
        relativeImports(join(root, file))
          .filter((target) => target.startsWith('server/features/'))
          .map((target) => `${file} -> ${target}`),
      );
    expect(reaching).toEqual([]);
  });

  it('reaches services only through the container: no WeakMap keyed by the app context', () => {
    const keyed = files.filter((file) =>
      /new WeakMap<\s*(AppContext|AppBase)\b/.test(readFileSync(join(root, file), 'utf8')),
    );
    expect(keyed).toEqual([]);
  });

  it('decorates only cross-cutting plumbing onto app: feature services live in ctx.services', () => {
    const plumbing = [
      'routeTable',
      'writer',
      'pendingWrites',
      'requestTimings',
      'rateLimitHooks',
      'rateLimitStore',
    ];
    const decorated = files.flatMap((file) =>
      [...readFileSync(join(root, file), 'utf8').matchAll(/\.decorate\(\s*'(\w+)'/g)]
        .filter((m) => !plumbing.includes(m[1] ?? ''))
        .map((m) => `${file}: app.${m[1]}`),
    );
    expect(decorated).toEqual([]);
  });
});

describe('web layout', () => {
  it('keeps web/pages/admin to one folder per screen, with no loose files', () => {
    const admin = join(root, 'web/pages/admin');
    const loose = readdirSync(admin).filter((name) => !statSync(join(admin, name)).isDirectory());
    expect(loose).toEqual([]);
  });
});

/*
 * Web screens are rooms. Each folder of web/pages/admin is a screen, except shared/ (what two or more
 * screens use) and shell/ (the app frame: sign-in, the sidebar, the socket, session checks). Tests
 * may reach anywhere, as on the server.
 */
const ADMIN = 'web/pages/admin/';
const FRAME = `${ADMIN}shell/`;
const SHARED = `${ADMIN}shared/`;
/** What every admin folder may import besides itself. */
const COMMON_GROUND = ['web/components/', 'web/lib/', 'common/'];
/**
 * A screen's socket listeners that must run on every screen (an emergency stop is news everywhere):
 * the frame mounts them, the only arrow from the frame into a screen.
 */
const APP_WIDE_LISTENERS = [`${ADMIN}live-configuration/use-configuration-events.ts`];

const adminFolderOf = (path: string) => new RegExp(`^${ADMIN}([^/]+)/`).exec(path)?.[1];

/** `file -> target` for each import of an admin file that leaves what its folder may import. */
function outOfBounds(file: string): string[] {
  const folder = `${ADMIN}${adminFolderOf(file)}/`;
  const allowed = [...COMMON_GROUND, folder];
  if (folder !== SHARED) allowed.push(SHARED);
  return relativeImports(join(root, file))
    .filter((target) => !allowed.some((prefix) => target.startsWith(prefix)))
    .filter((target) => !(folder === FRAME && APP_WIDE_LISTENERS.includes(target)))
    .map((target) => `${file} -> ${target}`);
}

describe('web rooms', () => {
  const adminFiles = sourceFiles(join(root, ADMIN))
    .map((file) => relative(root, file))
    .filter((file) => !isTestCode(file));

  it('imports nothing from another screen or the shell into a screen (only components, lib, shared, common)', () => {
    const screens = adminFiles.filter((file) => !file.startsWith(SHARED) && !file.startsWith(FRAME));
    expect(screens.flatMap(outOfBounds)).toEqual([]);
  });

  it('imports no screen and not the shell into shared/', () => {
    expect(adminFiles.filter((file) => file.startsWith(SHARED)).flatMap(outOfBounds)).toEqual([]);
  });

  it('imports into the shell no screen but the listeners it mounts app-wide', () => {
    expect(adminFiles.filter((file) => file.startsWith(FRAME)).flatMap(outOfBounds)).toEqual([]);
  });

  it('imports into the public pages only components, lib, common and themselves (never the admin)', () => {
    const publicFiles = sourceFiles(join(root, 'web/pages/public'))
      .map((file) => relative(root, file))
      .filter((file) => !isTestCode(file));
    const allowed = [...COMMON_GROUND, 'web/pages/public/'];
    const outside = publicFiles.flatMap((file) =>
      relativeImports(join(root, file))
        .filter((target) => !allowed.some((prefix) => target.startsWith(prefix)))
        .map((target) => `${file} -> ${target}`),
    );
    expect(outside).toEqual([]);
  });

  it('keeps web/components and web/lib free of pages', () => {
    const lower = ['web/components', 'web/lib'].flatMap((dir) =>
      sourceFiles(join(root, dir))
        .map((file) => relative(root, file))
        .filter((file) => !isTestCode(file)),
    );
    const upwards = lower.flatMap((file) =>
      relativeImports(join(root, file))
        .filter((target) => target.startsWith('web/pages/'))
        .map((target) => `${file} -> ${target}`),
    );
    expect(upwards).toEqual([]);
  });
});

/** Every import cycle among `files` (each once, as `a -> b -> … -> a`), by Tarjan's strongly connected components. */
function importCycles(files: string[]): string[] {
  const known = new Set(files);
  const edges = new Map(
    files.map((file) => [file, [...new Set(relativeImports(join(root, file)))].filter((t) => known.has(t))]),
  );
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file) as number);
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file) as number, index.get(next) as number));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || edges.get(file)?.includes(file)) components.push(component);
  };
  for (const file of files) if (!index.has(file)) visit(file);
  // Each component named by one loop through it: the shortest way back from its first file.
  return components.map((component) => {
    const members = new Set(component);
    const start = [...component].sort()[0] as string;
    const previous = new Map<string, string>();
    const queue = [start];
    for (let i = 0; i < queue.length; i++) {
      const file = queue[i] as string;
      for (const next of edges.get(file) ?? []) {
        if (!members.has(next)) continue;
        if (next === start) {
          const path = [file];
          while (path[0] !== start) path.unshift(previous.get(path[0] as string) as string);
          return [...path, start].join(' -> ');
        }
        if (!previous.has(next)) {
          previous.set(next, file);
          queue.push(next);
        }
      }
    }
    return component.join(' -> ');
  });
}

describe('import loops', () => {
  for (const dir of ['server', 'web', 'common']) {
    it(`finds none in ${dir}/ (type imports count; tests and fixtures aside)`, () => {
      const files = sourceFiles(join(root, dir))
        .map((file) => relative(root, file))
        .filter((file) => !isTestCode(file));
      expect(importCycles(files)).toEqual([]);
    });
  }
});

describe('file size', () => {
  /*
   * One job per file keeps a file short: every source file in server/ (its test helpers included,
   * the tests themselves aside) holds to it. A file that grows past it is split by job, not cut.
   */
  const LIMIT = 300;

  it(`keeps every non-test source file in server/ to ${LIMIT} lines or fewer`, () => {
    const long = sourceFiles(join(root, 'server'))
      .map((file) => relative(root, file))
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .map((file) => ({ file, lines: readFileSync(join(root, file), 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > LIMIT)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });
});
