import { describe, expect, it } from 'vitest';
import { describeLuaSyntaxError, findLuaSyntaxError } from './lua-syntax.ts';

describe('findLuaSyntaxError', () => {
  it('accepts valid Lua, including 5.3 operators and goto', () => {
    expect(
      findLuaSyntaxError('local a = 7 // 2\nif a > 1 then goto done end\n::done::\nprint(a)'),
    ).toBeNull();
  });

  it('gives the 1-based line and column of an unclosed call, with the parser message', () => {
    const error = findLuaSyntaxError('local x = 1\nprint(x');
    expect(error).toEqual({ line: 2, column: 8, message: "')' expected near '<eof>'" });
    expect(error && describeLuaSyntaxError(error)).toBe(
      "Lua syntax error on line 2: ')' expected near '<eof>'",
    );
  });

  it('refuses a missing end on the line where the source runs out', () => {
    expect(findLuaSyntaxError('function f()\n  return 1\n')?.line).toBe(3);
  });

  it('skips a leading byte-order mark, as Lua does, but still reports errors after it', () => {
    expect(findLuaSyntaxError('\uFEFFprint("hi")\r\n')).toBeNull();
    expect(findLuaSyntaxError('\uFEFFprint("hi"')?.line).toBe(1);
  });
});
