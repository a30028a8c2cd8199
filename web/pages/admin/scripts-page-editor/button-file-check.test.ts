import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SCRIPTS_PAGE_CONFIG,
  FREE_SCRIPT_FILE,
  UNIVERSAL_SCRIPT_FILE,
} from '../../../../common/public-defaults.ts';
import type { ScriptsPageButton, ScriptsPageConfig } from '../../../../common/scripts-page.ts';
import { brokenButtons, buttonFileProblem } from './button-file-check.ts';

const HOSTED = [
  { filename: FREE_SCRIPT_FILE, isPublic: true, accessType: 'FREE' as const },
  { filename: UNIVERSAL_SCRIPT_FILE, isPublic: true, accessType: 'FREE' as const },
  { filename: 'premium.lua', isPublic: true, accessType: 'PREMIUM' as const },
  { filename: 'private.lua', isPublic: false, accessType: 'FREE' as const },
];

const button = (change: Partial<ScriptsPageButton>): ScriptsPageButton => ({
  id: 'b',
  label: 'Get it',
  file: FREE_SCRIPT_FILE,
  downloadType: 'file',
  variant: 'default',
  visible: true,
  order: 0,
  ...change,
});

describe('buttonFileProblem', () => {
  it('passes a download of a public FREE file, and an empty file (the free scanner)', () => {
    expect(buttonFileProblem(button({}), HOSTED)).toBeNull();
    expect(buttonFileProblem(button({ file: '' }), HOSTED)).toBeNull();
    // The server finds a script whatever the case of its name.
    expect(buttonFileProblem(button({ file: 'Scanline-Free.LUA' }), HOSTED)).toBeNull();
  });

  it('names a missing file, and a file visitors may not download', () => {
    expect(buttonFileProblem(button({ file: 'gone.lua' }), HOSTED)).toBe(
      'gone.lua is not in the File Manager: visitors who press it get "Download Failed".',
    );
    for (const file of ['premium.lua', 'private.lua']) {
      expect(buttonFileProblem(button({ file }), HOSTED)).toBe(
        `${file} is not a public FREE file: visitors who press it get "Download Failed".`,
      );
    }
  });

  it('lets a loader point at a PREMIUM script, but not at a missing one', () => {
    expect(buttonFileProblem(button({ file: 'premium.lua', downloadType: 'script' }), HOSTED)).toBeNull();
    expect(buttonFileProblem(button({ file: 'gone.lua', downloadType: 'script' }), HOSTED)).toBe(
      'gone.lua is not in the File Manager: the loader it copies finds no script.',
    );
  });
});

describe('brokenButtons', () => {
  it('lists the failing buttons visitors see, by section, skipping hidden ones', () => {
    const config: ScriptsPageConfig = structuredClone(DEFAULT_SCRIPTS_PAGE_CONFIG);
    expect(brokenButtons(config, HOSTED)).toEqual([]);
    const [first, second] = config.sections;
    first!.buttons.push(button({ id: 'x', label: 'Extra', file: 'gone.lua', order: 5 }));
    first!.buttons.push(button({ id: 'y', label: 'Hidden', file: 'gone.lua', visible: false }));
    second!.visible = false;
    second!.buttons.push(button({ id: 'z', label: 'In hidden section', file: 'gone.lua' }));
    expect(brokenButtons(config, HOSTED)).toEqual([
      {
        section: first!.title,
        label: 'Extra',
        problem: 'gone.lua is not in the File Manager: visitors who press it get "Download Failed".',
      },
    ]);
  });
});
