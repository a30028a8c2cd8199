import luaparse from 'luaparse';
import { describe, expect, it } from 'vitest';
import { findLuaSyntaxError } from '../../../common/lua-syntax.ts';
import { loaderRefusalChunk, luaStringLiteral } from './loader-response.ts';

/** What Lua reads back from the literal (luaparse decodes the escapes the way Lua does). */
function readBack(literal: string): string {
  const chunk = luaparse.parse(`return ${literal}`, { encodingMode: 'pseudo-latin1' });
  const statement = chunk.body[0];
  if (statement?.type !== 'ReturnStatement') throw new Error('not a return statement');
  const value = statement.arguments[0];
  if (value?.type !== 'StringLiteral') throw new Error('not a string literal');
  return value.value;
}

describe('luaStringLiteral', () => {
  it('reads back as exactly the text, whatever quotes, backslashes and line breaks it holds', () => {
    for (const text of [
      'plain',
      'say "hi"',
      "it's",
      'C:\\path\\to\\file',
      'trailing backslash \\',
      'two\nlines\r\nand a\ttab',
      'bell \u0007 then digits 123',
      '\u0000 NUL and \u001f unit separator and \u007f delete',
      '"); os.exit() --',
      ']] [[ long brackets',
      '',
    ]) {
      const literal = luaStringLiteral(text);
      expect(findLuaSyntaxError(`print(${literal})`), text).toBeNull();
      expect(readBack(literal), text).toBe(text);
    }
  });

  it('keeps every escape on one line and a control character from swallowing the digits after it', () => {
    expect(luaStringLiteral('a"b\\c\nd')).toBe('"a\\"b\\\\c\\nd"');
    expect(luaStringLiteral('\u00011')).toBe('"\\0011"');
    expect(luaStringLiteral('x\ny')).not.toContain('\n');
  });

  it('passes non-ASCII text through as it is (Lua strings are bytes)', () => {
    expect(luaStringLiteral('héllo ✓')).toBe('"héllo ✓"');
  });
});

describe('loaderRefusalChunk', () => {
  it('is one print of the message, tagged Scanline, that parses as Lua', () => {
    const chunk = loaderRefusalChunk('Script not found: "x".lua\nretry');
    expect(chunk).toBe('print("[Scanline] Script not found: \\"x\\".lua\\nretry")\n');
    expect(findLuaSyntaxError(chunk)).toBeNull();
  });
});
