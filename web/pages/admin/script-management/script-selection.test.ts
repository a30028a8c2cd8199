import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api.ts';
import type { ScriptSummary } from '../../../../common/scripts.ts';
import { newScriptNameProblem } from './create-script-dialog.tsx';
import { luaSyntaxRefusal } from './script-save-error.ts';
import { defaultScriptName, scriptDeleteBlocker, selectedScriptName } from './script-selection.ts';

function summary(name: string, overrides: Partial<ScriptSummary> = {}): ScriptSummary {
  return {
    name,
    accessType: 'FREE',
    location: 'hosted-scripts',
    isPublic: true,
    size: 10,
    lines: 1,
    version: 1,
    lastModified: '2026-11-22T10:00:00.000Z',
    ...overrides,
  };
}

describe('which script the screen opens', () => {
  it('prefers the universal script, else the first one, else none', () => {
    expect(defaultScriptName([summary('a.lua'), summary('scanline-universal.lua')])).toBe(
      'scanline-universal.lua',
    );
    expect(defaultScriptName([summary('b.lua'), summary('a.lua')])).toBe('b.lua');
    expect(defaultScriptName([])).toBeNull();
  });

  it("keeps the admin's choice while it exists and falls back once it is gone", () => {
    const scripts = [summary('scanline-universal.lua'), summary('farm.lua')];
    expect(selectedScriptName(scripts, 'farm.lua')).toBe('farm.lua');
    expect(selectedScriptName(scripts, 'deleted.lua')).toBe('scanline-universal.lua');
  });
});

describe('when a script cannot be deleted', () => {
  it('names the last-script rule before the shipped-script rule', () => {
    expect(scriptDeleteBlocker(summary('a.lua', { location: 'project' }), 1)).toBe(
      'Cannot delete the last script',
    );
    expect(scriptDeleteBlocker(summary('a.lua', { location: 'project' }), 2)).toBe(
      'Project scripts ship with the app and cannot be deleted',
    );
    expect(scriptDeleteBlocker(summary('a.lua'), 2)).toBeNull();
  });
});

describe('a new script name', () => {
  it('is fine when valid or still blank, and says what is wrong otherwise', () => {
    expect(newScriptNameProblem('farm', [])).toBeNull();
    expect(newScriptNameProblem('  ', [])).toBeNull();
    expect(newScriptNameProblem('../farm', [])).toBe('The name must not contain "..".');
    expect(newScriptNameProblem('farm', ['farm.lua'])).toBe('A script named farm.lua already exists.');
  });
});

describe('a save refused for its Lua syntax', () => {
  const refusal = {
    error: "Lua syntax error on line 2: unexpected symbol '=' near '='",
    syntaxError: { line: 2, column: 11, message: "unexpected symbol '=' near '='" },
  };

  it('is read from a 400 carrying syntaxError', () => {
    expect(luaSyntaxRefusal(new ApiError(400, JSON.stringify(refusal), 'Bad Request'))).toEqual(refusal);
  });

  it('is not any other failure', () => {
    expect(luaSyntaxRefusal(new ApiError(400, JSON.stringify({ error: 'bad' }), 'Bad Request'))).toBeNull();
    expect(luaSyntaxRefusal(new ApiError(409, JSON.stringify(refusal), 'Conflict'))).toBeNull();
    expect(luaSyntaxRefusal(new ApiError(400, 'not json', 'Bad Request'))).toBeNull();
    expect(luaSyntaxRefusal(new Error('network down'))).toBeNull();
  });
});
