import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS, ghostIds, OptionsError, parseOptions } from './options.ts';

const noFile = () => {
  throw new Error('ENOENT');
};

describe('simulator options', () => {
  it('defaults to 70 bots against localhost:5000 with the token the server wrote', () => {
    const options = parseOptions([], {}, (path) => {
      expect(path).toBe('./data/bot-token');
      return 'file-token\n';
    });
    expect(options).toMatchObject({
      bots: 70,
      url: 'http://localhost:5000',
      token: 'file-token',
      hopIntervalMs: DEFAULT_OPTIONS.hopIntervalMs,
      failureRate: DEFAULT_OPTIONS.failureRate,
    });
  });

  it('takes flags over environment variables', () => {
    const options = parseOptions(
      ['--bots', '5', '--hop-interval', '200', '--failure-rate', '0.5', '--url', 'http://127.0.0.1:4000/'],
      { SIM_BOTS: '9', SIM_HOP_INTERVAL_MS: '999', BOT_TOKEN: 'env-token', SIM_DISCOVERY_RATE: '30' },
      noFile,
    );
    expect(options).toMatchObject({
      bots: 5,
      hopIntervalMs: 200,
      failureRate: 0.5,
      discoveryRate: 30,
      url: 'http://127.0.0.1:4000',
      token: 'env-token',
    });
  });

  it('reads the token file named by BOT_TOKEN_FILE, and says how to get a token when there is none', () => {
    expect(parseOptions([], { BOT_TOKEN_FILE: '/x/tok' }, (p) => (p === '/x/tok' ? 't1' : ''))?.token).toBe(
      't1',
    );
    expect(() => parseOptions([], {}, noFile)).toThrow(/pass --token, set BOT_TOKEN/);
  });

  it("keeps the bots' own botTokens in --credentials, SIM_CREDENTIALS_FILE or ./data/simulator-bots.json", () => {
    const parse = (argv: string[], env = {}) => parseOptions(argv, { BOT_TOKEN: 't', ...env }, noFile);
    expect(parse([])?.credentialsFile).toBe('./data/simulator-bots.json');
    expect(parse([], { SIM_CREDENTIALS_FILE: '/e/bots.json' })?.credentialsFile).toBe('/e/bots.json');
    expect(parse(['--credentials', '/f/bots.json'], { SIM_CREDENTIALS_FILE: '/e' })?.credentialsFile).toBe(
      '/f/bots.json',
    );
  });

  it('refuses bad values, naming the option', () => {
    const parse = (argv: string[]) => () => parseOptions(argv, { BOT_TOKEN: 't' }, noFile);
    expect(parse(['--bots', '0'])).toThrow(OptionsError);
    expect(parse(['--bots', '10001'])).toThrow(/--bots must be a whole number from 1 to 10000/);
    expect(parse(['--ramp-s=-1'])).toThrow(/--ramp-s must be a number from 0/);
    expect(parse(['--bots', 'many'])).toThrow(/--bots must be a whole number/);
    expect(parse(['--failure-rate', '1.5'])).toThrow(/--failure-rate must be a number from 0 to 1/);
    expect(parse(['--url', 'localhost'])).toThrow(/--url/);
    expect(parse(['--url', 'ftp://x'])).toThrow(/--url must start with http/);
    expect(parse(['--places', '12,abc'])).toThrow(/--places/);
    expect(parse(['--nope'])).toThrow(OptionsError);
    expect(parseOptions(['--help'], {}, noFile)).toBeNull();
  });

  it('picks silent and failing bots from the end of the fleet, or by id', () => {
    const parse = (argv: string[], env = {}) => parseOptions(argv, { BOT_TOKEN: 't', ...env }, noFile);
    expect(parse([])).toMatchObject({ silentBots: [], failingBots: [] });
    expect(parse(['--bots', '10', '--silent-bots', '2', '--failing-bots', '3'])).toMatchObject({
      silentBots: ['ghost-09', 'ghost-10'],
      failingBots: ['ghost-06', 'ghost-07', 'ghost-08'],
    });
    // Named bots first; a count takes from the end, skipping them.
    expect(
      parse(['--bots', '10', '--silent-bots', 'ghost-10,ghost-02', '--failing-bots', '1']),
    ).toMatchObject({
      silentBots: ['ghost-10', 'ghost-02'],
      failingBots: ['ghost-09'],
    });
    expect(parse(['--bots', '5'], { SIM_SILENT_BOTS: '1', SIM_FAILING_BOTS: 'ghost-01' })).toMatchObject({
      silentBots: ['ghost-05'],
      failingBots: ['ghost-01'],
    });
  });

  it('refuses silent and failing bots the fleet does not have, naming the option', () => {
    const parse = (argv: string[]) => () =>
      parseOptions(['--bots', '5', ...argv], { BOT_TOKEN: 't' }, noFile);
    expect(parse(['--silent-bots', '6'])).toThrow(/--silent-bots must be a whole number from 0 to 5/);
    expect(parse(['--failing-bots', 'ghost-09'])).toThrow(
      /--failing-bots must be a number of bots or comma-separated ids of the 5 bots/,
    );
    expect(parse(['--silent-bots', '-1'])).toThrow(/--silent-bots/);
    expect(parse(['--silent-bots', 'ghost-02', '--failing-bots', 'ghost-02'])).toThrow(/both name ghost-02/);
    expect(parse(['--silent-bots', '3', '--failing-bots', '3'])).toThrow(/ask for 6 bots, more than the 5/);
  });

  it('makes the last N bots HTTP-only with --http-bots, at most the fleet', () => {
    const parse = (argv: string[], env = {}) => parseOptions(argv, { BOT_TOKEN: 't', ...env }, noFile);
    expect(parse([])).toMatchObject({ httpBots: [] });
    expect(parse(['--bots', '10', '--http-bots', '2'])).toMatchObject({ httpBots: ['ghost-09', 'ghost-10'] });
    expect(parse(['--bots', '3'], { SIM_HTTP_BOTS: '1' })).toMatchObject({ httpBots: ['ghost-03'] });
    expect(() => parse(['--bots', '3', '--http-bots', '4'])).toThrow(
      /--http-bots must be a whole number from 0 to 3/,
    );
  });

  it('plays a fleet of thousands, its connects spread over --ramp-s or SIM_RAMP_S', () => {
    const options = parseOptions(['--bots', '2000', '--ramp-s', '30'], { BOT_TOKEN: 't' }, noFile);
    expect(options).toMatchObject({ bots: 2000, rampSeconds: 30 });
    expect(parseOptions([], { BOT_TOKEN: 't', SIM_RAMP_S: '12.5' }, noFile)?.rampSeconds).toBe(12.5);
    expect(parseOptions([], { BOT_TOKEN: 't' }, noFile)?.rampSeconds).toBe(0);
  });

  it('gives bots stable, sortable ghost ids', () => {
    expect(ghostIds(70).slice(0, 2)).toEqual(['ghost-01', 'ghost-02']);
    expect(ghostIds(70).at(-1)).toBe('ghost-70');
    expect(ghostIds(120)[0]).toBe('ghost-001');
  });
});
