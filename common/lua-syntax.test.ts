import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeLuaSyntaxError, findLuaSyntaxError, TOO_DEEPLY_NESTED } from './lua-syntax.ts';

describe('findLuaSyntaxError', () => {
  it.each([
    ['compound assignment', 'local n = 1\nn += 2\nn //= 2\nn ..= "!"'],
    ['continue', 'for i = 1, 3 do\n  if i == 2 then continue end\n  print(i)\nend'],
    [
      'type annotations',
      'local n: number = 1\nlocal function f(a: string, b: number?): (string, number)\n  return a, b or n\nend',
    ],
    ['backtick strings', 'local name = "pet"\nprint(`found {name} worth {2 * 5}M/s`)'],
    [
      'generics and export type',
      'export type Pair<K, V> = { key: K, value: V }\nlocal function id<T>(x: T): T return x end',
    ],
    [
      'casts, if-expressions and typeof',
      'local v = (workspace :: any)\nlocal w = if v then 1 else 2\ntype T = typeof(v)',
    ],
    [
      'continue and type as plain names',
      'local continue = 1\nlocal type = type(continue)\nprint(continue, type)',
    ],
  ])('accepts Luau: %s', (_name, source) => {
    expect(findLuaSyntaxError(source)).toBeNull();
  });

  it.each([
    [
      'Lua 5.1',
      'local t = {}\nfunction t:m(...) return select("#", ...) end\nprint(#t, t:m(1, 2) ~= 2 and "no" or "yes")\nrepeat local z = 1 until z == 1\nlocal s = [==[long]]\nstring]==] -- note\n--[[ block ]]',
    ],
    [
      'Lua 5.2 goto and labels',
      'for i = 1, 3 do\n  if i == 2 then goto continue end\n  print(i)\n  ::continue::\nend',
    ],
    [
      'Lua 5.3 integer division and bit operators',
      'local a = 7 // 2\nlocal b = 1 & 3 | 4 ~ 5 << 1 >> 2\nprint(~b)',
    ],
    ['Lua 5.4 attributes', 'local limit <const> = 5\nlocal f <close> = nil'],
    ['a shebang line', '#!/usr/bin/env lua\nprint(1)'],
  ])('accepts plain Lua: %s', (_name, source) => {
    expect(findLuaSyntaxError(source)).toBeNull();
  });

  it('accepts every script shipped in scripts/', () => {
    const dir = join(import.meta.dirname, '..', 'scripts');
    const names = readdirSync(dir).filter((name) => name.endsWith('.lua'));
    expect(names.length).toBeGreaterThan(0);
    for (const name of names)
      expect(findLuaSyntaxError(readFileSync(join(dir, name), 'utf8')), name).toBeNull();
  });

  it('gives the 1-based line and column the parser complains about, with its message', () => {
    const error = findLuaSyntaxError('local x = 1\nlocal speed = = 16\n');
    expect(error).toEqual({ line: 2, column: 13, message: 'unexpected token `=`, expected an expression' });
    expect(error && describeLuaSyntaxError(error)).toBe(
      'Lua syntax error on line 2: unexpected token `=`, expected an expression',
    );
  });

  it('points an unclosed call at its bracket', () => {
    expect(findLuaSyntaxError('local x = 1\nprint(x')).toEqual({
      line: 2,
      column: 6,
      message: 'unexpected token `(`, expected `)` to close function call',
    });
  });

  it('refuses a missing end at the end of the file, where the source runs out', () => {
    expect(findLuaSyntaxError('function f()\n  return 1\n')).toEqual({
      line: 3,
      column: 1,
      message: 'unexpected end of file, expected `end` to close function body block',
    });
  });

  it('counts columns the way the editor does, after accents and emoji', () => {
    // "😀" is one character to the parser and two UTF-16 units to the editor.
    expect(findLuaSyntaxError('local s = "😀é" local = 1')).toMatchObject({ line: 1, column: 23 });
  });

  it('skips a leading byte-order mark, as Lua does, but still reports errors after it', () => {
    expect(findLuaSyntaxError('\uFEFFprint("hi")\r\n')).toBeNull();
    expect(findLuaSyntaxError('\uFEFFlocal = 1')).toMatchObject({ line: 1, column: 8 });
  });

  it('keeps the message to one short line when the parser quotes a long token', () => {
    const error = findLuaSyntaxError(`local [[${'line\n'.repeat(400)}]]`);
    expect(error?.message).not.toContain('\n');
    expect(error?.message.length).toBeLessThanOrEqual(200);
  });

  it('refuses Luau nested deeper than full-moon can follow, and checks the next script as usual', () => {
    const deep = `${'if x then '.repeat(200)}x += 1 ${'end '.repeat(200)}`;
    expect(findLuaSyntaxError(deep)).toEqual({ line: 1, column: 1, message: TOO_DEEPLY_NESTED });
    expect(findLuaSyntaxError('local n: number = 1\nn += 1')).toBeNull();
    expect(findLuaSyntaxError('print(')?.line).toBe(1);
  });

  it('passes plain Lua nested that deep, as Lua 5.3 reads it', () => {
    expect(findLuaSyntaxError(`${'if x then '.repeat(200)}x = x + 1 ${'end '.repeat(200)}`)).toBeNull();
  });

  it('accepts everyday nesting: 15 levels of callbacks, branches and loops', () => {
    const openers = [
      'game.Players.PlayerAdded:Connect(function(p)',
      'if p then',
      'for _, v in ipairs(p:GetChildren()) do',
    ];
    const closers = ['end)', 'end', 'end'];
    const levels = Array.from({ length: 15 }, (_, i) => i % 3);
    const source = [
      ...levels.map((kind) => openers[kind]),
      'print(`{p.Name}`)',
      ...levels.reverse().map((kind) => closers[kind]),
    ].join('\n');
    expect(findLuaSyntaxError(source)).toBeNull();
  });
});
