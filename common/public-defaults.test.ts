import { describe, expect, it } from 'vitest';
import { DEFAULT_SCRIPTS_PAGE_CONFIG } from './public-defaults.ts';
import { ScriptsPageConfigSchema } from './scripts-page.ts';

describe('public defaults', () => {
  it('give a default scripts page the schema accepts unchanged', () => {
    expect(ScriptsPageConfigSchema.parse(DEFAULT_SCRIPTS_PAGE_CONFIG)).toEqual(DEFAULT_SCRIPTS_PAGE_CONFIG);
  });
});
