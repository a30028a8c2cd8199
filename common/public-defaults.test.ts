import { describe, expect, it } from 'vitest';
import * as publicDefaults from './public-defaults.ts';
import * as scriptsPage from './scripts-page.ts';
import * as system from './system.ts';

describe('public defaults (the zod-free copies the public bundle uses)', () => {
  it('match the premium price and default slot count of the system contract', () => {
    expect(publicDefaults.PREMIUM_PRICE_USD).toBe(system.PREMIUM_PRICE_USD);
    expect(publicDefaults.DEFAULT_TOTAL_SLOTS).toBe(system.DEFAULT_TOTAL_SLOTS);
  });

  it('match the free script name and the default scripts page of the scripts contract', () => {
    expect(publicDefaults.FREE_SCRIPT_FILE).toBe(scriptsPage.FREE_SCRIPT_FILE);
    expect(publicDefaults.DEFAULT_SCRIPTS_PAGE_CONFIG).toEqual(scriptsPage.DEFAULT_SCRIPTS_PAGE_CONFIG);
  });

  it('give a default scripts page the schema accepts', () => {
    expect(scriptsPage.ScriptsPageConfigSchema.parse(publicDefaults.DEFAULT_SCRIPTS_PAGE_CONFIG)).toEqual(
      publicDefaults.DEFAULT_SCRIPTS_PAGE_CONFIG,
    );
  });
});
