import luaparse from 'luaparse';
import type { LuaSyntaxError } from './scripts.ts';

/**
 * Where a Lua source fails to parse, or null when it parses. The server refuses such a save or
 * upload, and the editor marks the same spot while the admin types. Lua 5.3 grammar, which also
 * covers 5.1 and LuaJIT code; Luau-only syntax (`+=`, type annotations) does not parse. A leading
 * byte-order mark is skipped, as Lua's own file loader skips it.
 */
export function findLuaSyntaxError(source: string): LuaSyntaxError | null {
  try {
    // Only the verdict matters: skip building scopes, comments and locations.
    luaparse.parse(source.replace(/^\uFEFF/, ''), {
      luaVersion: '5.3',
      comments: false,
      scope: false,
      locations: false,
    });
    return null;
  } catch (error) {
    if (!isLuaparseError(error)) throw error;
    return {
      line: error.line,
      // luaparse counts columns from 0; editors and people count from 1.
      column: error.column + 1,
      message: error.message.replace(/^\[\d+:\d+\]\s*/, ''),
    };
  }
}

/** The one-line text a refused save shows: "Lua syntax error on line 3: ')' expected near '<eof>'". */
export function describeLuaSyntaxError(error: LuaSyntaxError): string {
  return `Lua syntax error on line ${error.line}: ${error.message}`;
}

interface LuaparseError extends SyntaxError {
  line: number;
  column: number;
}

function isLuaparseError(error: unknown): error is LuaparseError {
  return (
    error instanceof SyntaxError &&
    typeof (error as Partial<LuaparseError>).line === 'number' &&
    typeof (error as Partial<LuaparseError>).column === 'number'
  );
}
