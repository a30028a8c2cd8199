import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

/*
 * The simulator's options: flags first, then environment variables, then defaults. Every number is
 * checked, and a bad one is refused with the option's name, before a single bot connects.
 */

export interface SimulatorOptions {
  /** How many bots, ghost-01 … ghost-NN. */
  bots: number;
  /** Time between two hops of one bot (each bot's is jittered ±20%); a `config` frame's hopFrequencyMs replaces it. */
  hopIntervalMs: number;
  /** Finds per bot per minute on average. */
  discoveryRate: number;
  /** Share of hop attempts that fail (server full, teleport errors), 0 to 1. */
  failureRate: number;
  /** The server's base URL: http(s) for the API, ws(s) for /ws. */
  url: string;
  /** The shared bot token: the enrollment secret each bot presents once for its own botToken. */
  token: string;
  /** Where the bots' own botTokens are kept between runs (main.ts; mode 0600), per server URL. */
  credentialsFile: string;
  /** How often the one-line status is printed; 0 prints nothing. */
  statusIntervalMs: number;
  /** Stop by itself after this many seconds; 0 runs until Ctrl-C. */
  durationSeconds: number;
  /** Game places the bots scan (Roblox PlaceIds). */
  placeIds: string[];
  ghostPrefix: string;
  /** Bots that never answer a `config` frame (neither apply nor acknowledge it): pushes to them fail on the deadline. */
  silentBots: readonly string[];
  /** Bots that refuse every `config` frame with an error (`config_ack {ok: false}`): pushes to them fail at once. */
  failingBots: readonly string[];
  /** Bots without a socket: they speak only POST /api/bot/events and take their frames from its answers. */
  httpBots: readonly string[];
  /** Seconds over which the bots' connects are spread (0: all at once), so a large fleet does not arrive in one burst. */
  rampSeconds: number;
}

export const DEFAULT_OPTIONS = {
  bots: 70,
  hopIntervalMs: 5_000,
  discoveryRate: 6,
  failureRate: 0.1,
  url: 'http://localhost:5000',
  statusIntervalMs: 5_000,
  durationSeconds: 0,
  placeIds: ['109983668079237', '96342491571673', '128315398434398'],
  ghostPrefix: 'ghost-',
  silentBots: [],
  failingBots: [],
  httpBots: [],
  rampSeconds: 0,
  credentialsFile: './data/simulator-bots.json',
} as const;

export const DEFAULT_TOKEN_FILE = './data/bot-token';

/** The most bots one simulator plays (a scale run of several instances uses several simulators or one this size). */
export const MAX_SIMULATED_BOTS = 10_000;

export const USAGE = `Usage: npm run simulate -- [options]

  --bots N             bots to run, 1 to ${MAX_SIMULATED_BOTS} (env SIM_BOTS, default ${DEFAULT_OPTIONS.bots})
  --hop-interval MS    time between hops per bot until the server's first config frame sets it
                       (env SIM_HOP_INTERVAL_MS, default ${DEFAULT_OPTIONS.hopIntervalMs})
  --discovery-rate N   finds per bot per minute (env SIM_DISCOVERY_RATE, default ${DEFAULT_OPTIONS.discoveryRate})
  --failure-rate P     share of failed hop attempts, 0-1 (env SIM_FAILURE_RATE, default ${DEFAULT_OPTIONS.failureRate})
  --url URL            server (env SIM_URL, default ${DEFAULT_OPTIONS.url})
  --token TOKEN        the shared bot token each bot enrolls with (env BOT_TOKEN, else the file
                       BOT_TOKEN_FILE or ${DEFAULT_TOKEN_FILE})
  --credentials FILE   where the bots keep their own botTokens between runs (env SIM_CREDENTIALS_FILE,
                       default ${DEFAULT_OPTIONS.credentialsFile})
  --status-interval MS status line period, 0 for none (default ${DEFAULT_OPTIONS.statusIntervalMs})
  --duration S         stop after S seconds, 0 to run until Ctrl-C (default 0)
  --places IDS         comma-separated place ids to scan
  --silent-bots N|IDS  bots that never acknowledge a config: the last N, or ids such as ghost-03,ghost-07
                       (env SIM_SILENT_BOTS, default none)
  --failing-bots N|IDS bots that refuse every config with an error: N (before the silent ones), or ids
                       (env SIM_FAILING_BOTS, default none)
  --http-bots N        the last N bots speak only HTTP: they post their events to /api/bot/events every
                       few seconds (idle too) and take config and emergency frames from its answers
                       (env SIM_HTTP_BOTS, default 0)
  --ramp-s S           spread the bots' connects over S seconds (env SIM_RAMP_S, default 0: all at once)
  --help               this text`;

export class OptionsError extends Error {}

type Env = Record<string, string | undefined>;

function number(
  name: string,
  raw: string | undefined,
  fallback: number,
  { min, max, integer }: { min: number; max: number; integer?: boolean },
): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || (integer && !Number.isInteger(value)) || value < min || value > max) {
    throw new OptionsError(
      `${name} must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max} (got '${raw}')`,
    );
  }
  return value;
}

/** The token: --token, else BOT_TOKEN, else the file the server wrote on its first start. */
function resolveToken(flag: string | undefined, env: Env, readFile: (path: string) => string): string {
  const explicit = flag ?? env.BOT_TOKEN;
  if (explicit?.trim()) return explicit.trim();
  const file = env.BOT_TOKEN_FILE || DEFAULT_TOKEN_FILE;
  let content: string;
  try {
    content = readFile(file);
  } catch {
    throw new OptionsError(
      `no bot token: pass --token, set BOT_TOKEN, or start the server once so it writes ${file}`,
    );
  }
  const token = content.trim();
  if (!token) throw new OptionsError(`${file} is empty: pass --token or set BOT_TOKEN`);
  return token;
}

/** Reads options from argv (without node and the script) and the environment; null when --help. */
export function parseOptions(
  argv: readonly string[],
  env: Env = process.env,
  readFile: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): SimulatorOptions | null {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        bots: { type: 'string' },
        'hop-interval': { type: 'string' },
        'discovery-rate': { type: 'string' },
        'failure-rate': { type: 'string' },
        url: { type: 'string' },
        token: { type: 'string' },
        credentials: { type: 'string' },
        'status-interval': { type: 'string' },
        duration: { type: 'string' },
        places: { type: 'string' },
        'silent-bots': { type: 'string' },
        'failing-bots': { type: 'string' },
        'http-bots': { type: 'string' },
        'ramp-s': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new OptionsError((error as Error).message);
  }
  if (values.help) return null;
  const flag = (name: string) => values[name] as string | undefined;

  const rawUrl = flag('url') ?? env.SIM_URL ?? DEFAULT_OPTIONS.url;
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new OptionsError(`--url must be a URL such as http://localhost:5000 (got '${rawUrl}')`);
  }
  if (!['http:', 'https:'].includes(url.protocol)) {
    throw new OptionsError(`--url must start with http:// or https:// (got '${rawUrl}')`);
  }

  const rawPlaces = flag('places') ?? env.SIM_PLACES;
  const placeIds = rawPlaces
    ? rawPlaces
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean)
    : [...DEFAULT_OPTIONS.placeIds];
  const badPlace = placeIds.find((id) => !/^\d{1,20}$/.test(id));
  if (placeIds.length === 0 || badPlace !== undefined) {
    throw new OptionsError(`--places must be comma-separated whole numbers (got '${rawPlaces}')`);
  }

  const bots = number('--bots', flag('bots') ?? env.SIM_BOTS, DEFAULT_OPTIONS.bots, {
    min: 1,
    max: MAX_SIMULATED_BOTS,
    integer: true,
  });
  const { silent, failing } = misbehavingBots(
    ghostIds(bots),
    flag('silent-bots') ?? env.SIM_SILENT_BOTS,
    flag('failing-bots') ?? env.SIM_FAILING_BOTS,
  );

  const httpBots = number('--http-bots', flag('http-bots') ?? env.SIM_HTTP_BOTS, 0, {
    min: 0,
    max: bots,
    integer: true,
  });

  return {
    bots,
    hopIntervalMs: number(
      '--hop-interval',
      flag('hop-interval') ?? env.SIM_HOP_INTERVAL_MS,
      DEFAULT_OPTIONS.hopIntervalMs,
      { min: 50, max: 3_600_000, integer: true },
    ),
    discoveryRate: number(
      '--discovery-rate',
      flag('discovery-rate') ?? env.SIM_DISCOVERY_RATE,
      DEFAULT_OPTIONS.discoveryRate,
      { min: 0, max: 6_000 },
    ),
    failureRate: number(
      '--failure-rate',
      flag('failure-rate') ?? env.SIM_FAILURE_RATE,
      DEFAULT_OPTIONS.failureRate,
      { min: 0, max: 1 },
    ),
    url: url.origin + url.pathname.replace(/\/+$/, ''),
    token: resolveToken(flag('token'), env, readFile),
    credentialsFile: flag('credentials') || env.SIM_CREDENTIALS_FILE || DEFAULT_OPTIONS.credentialsFile,
    statusIntervalMs: number('--status-interval', flag('status-interval'), DEFAULT_OPTIONS.statusIntervalMs, {
      min: 0,
      max: 3_600_000,
      integer: true,
    }),
    durationSeconds: number('--duration', flag('duration'), DEFAULT_OPTIONS.durationSeconds, {
      min: 0,
      max: 31_536_000,
    }),
    placeIds,
    ghostPrefix: DEFAULT_OPTIONS.ghostPrefix,
    silentBots: silent,
    failingBots: failing,
    // Whatever they do with a config: an HTTP bot may be silent or failing too.
    httpBots: httpBots === 0 ? [] : ghostIds(bots).slice(-httpBots),
    rampSeconds: number('--ramp-s', flag('ramp-s') ?? env.SIM_RAMP_S, DEFAULT_OPTIONS.rampSeconds, {
      min: 0,
      max: 3_600,
    }),
  };
}

type Pick = { count: number } | { ids: string[] };

/** One of --silent-bots / --failing-bots: a whole number of bots, or a comma-separated list of their ids. */
function pickOf(name: string, raw: string | undefined, fleet: readonly string[]): Pick {
  if (raw === undefined || raw.trim() === '') return { count: 0 };
  if (/^\s*\d+\s*$/.test(raw)) {
    return { count: number(name, raw, 0, { min: 0, max: fleet.length, integer: true }) };
  }
  const ids = [
    ...new Set(
      raw
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  ];
  const stranger = ids.find((id) => !fleet.includes(id));
  if (ids.length === 0 || stranger !== undefined) {
    throw new OptionsError(
      `${name} must be a number of bots or comma-separated ids of the ${fleet.length} bots, such as ${fleet[0]} (got '${raw}')`,
    );
  }
  return { ids };
}

/**
 * Which bots misbehave on `config` frames. Named bots first; a count takes bots from the end of the
 * fleet (silent ones last, failing ones before them), so the first bots on the screen's selector
 * behave and the misbehaving ones are easy to find.
 */
function misbehavingBots(
  fleet: readonly string[],
  rawSilent: string | undefined,
  rawFailing: string | undefined,
): { silent: string[]; failing: string[] } {
  const silentPick = pickOf('--silent-bots', rawSilent, fleet);
  const failingPick = pickOf('--failing-bots', rawFailing, fleet);
  const silent = 'ids' in silentPick ? silentPick.ids : [];
  const failing = 'ids' in failingPick ? failingPick.ids : [];
  const both = silent.find((id) => failing.includes(id));
  if (both !== undefined) {
    throw new OptionsError(`--silent-bots and --failing-bots both name ${both}: a bot is one or the other`);
  }
  const free = fleet.filter((id) => !silent.includes(id) && !failing.includes(id));
  const take = (pick: Pick) => ('count' in pick && pick.count > 0 ? free.splice(-pick.count) : []);
  const wanted =
    ('count' in silentPick ? silentPick.count : 0) + ('count' in failingPick ? failingPick.count : 0);
  if (wanted > free.length) {
    throw new OptionsError(
      `--silent-bots and --failing-bots ask for ${wanted} bots, more than the ${free.length} of ${fleet.length} left to them`,
    );
  }
  silent.push(...take(silentPick));
  failing.push(...take(failingPick));
  return { silent, failing };
}

/** ghost-01 … ghost-70: stable ids, zero-padded to the fleet's size so they sort. */
export function ghostIds(count: number, prefix: string = DEFAULT_OPTIONS.ghostPrefix): string[] {
  const width = Math.max(2, String(count).length);
  return Array.from({ length: count }, (_, i) => `${prefix}${String(i + 1).padStart(width, '0')}`);
}
