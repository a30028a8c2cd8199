import { createRequire } from 'node:module';
import luaparse from 'luaparse';
import type { LuaSyntaxError } from './scripts.ts';

/**
 * Lua and Luau syntax through full-moon (the parser behind StyLua and selene), compiled to
 * WebAssembly in `@johnnymorganz/stylua`. With `LuaVersion.All` one pass accepts Lua 5.1 to 5.4,
 * LuaJIT and Luau (`+=`, `continue`, type annotations, generics, backtick strings), so plain Lua
 * and Roblox scripts both pass.
 *
 * Node only. The server checks off its event loop (server/features/scripts/lua-syntax-checker.ts,
 * which also answers the editor); `findLuaSyntaxError` below is the same check in this thread, for
 * tests and tools.
 */

type Stylua = typeof import('@johnnymorganz/stylua');

/** What one parse said, before it is turned into a LuaSyntaxError. */
export type LuaParseOutcome =
  | { parsed: true }
  /** full-moon's error text, e.g. "error parsing: unexpected token `(` (2:6 to 2:7), expected `)` …". */
  | { parsed: false; message: string }
  /** The parser broke down (a WebAssembly trap): its stack or its memory ran out. */
  | { parsed: false; trap: string };

/**
 * formatCode is StyLua's only entry point. A range past the end formats nothing, so the call is a
 * parse (about 3x faster than formatting everything), and the output is not re-verified.
 * The worker in lua-syntax-checker.ts makes the same call.
 */
export const NOTHING_TO_FORMAT = 0xffffffff;

function parseWith(stylua: Stylua, source: string): LuaParseOutcome {
  const config = stylua.Config.new();
  config.syntax = stylua.LuaVersion.All;
  try {
    stylua.formatCode(
      source,
      config,
      stylua.Range.from_values(NOTHING_TO_FORMAT, NOTHING_TO_FORMAT),
      stylua.OutputVerification.None,
    );
    return { parsed: true };
  } catch (error) {
    // Parse errors come back as strings; anything else is the instance breaking down.
    if (typeof error === 'string') return { parsed: false, message: error };
    return { parsed: false, trap: String(error instanceof Error ? error.message : error) };
  }
}

/**
 * full-moon's WebAssembly stack holds about 25 levels of nested blocks and functions, 90 of brackets
 * or 250 chained operators, and its memory about 330,000 tokens (~3 KB each; the server caps it at
 * 1 GiB), so a dense 1 MiB data table is out of its reach. Code it cannot finish gets the verdict of
 * luaparse's Lua 5.3 grammar, which has neither limit: plain Lua passes as it always did, and only
 * Luau beyond full-moon's reach is refused, with one of these.
 */
export const TOO_DEEPLY_NESTED =
  'code nested too deeply to check as Luau (keep blocks, functions and brackets under about 20 levels)';
export const TOO_LARGE = 'script too large to check as Luau: split it into smaller scripts';

/** luaparse only for a verdict: no scopes, comments or locations to build. */
export const LUAPARSE_OPTIONS = {
  luaVersion: '5.3',
  comments: false,
  scope: false,
  locations: false,
} as const;

/** Whether luaparse's Lua 5.3 grammar (which covers 5.1) accepts `source`; its own stack may run out too. */
export function parsesAsLua53(source: string): boolean {
  try {
    luaparse.parse(source, LUAPARSE_OPTIONS);
    return true;
  } catch {
    return false;
  }
}

// One full-moon error: "<what> (l:c to l:c)[, <expected>]". Columns count characters from 1.
const PARSE_ERROR = /^(.*?) \((\d+):(\d+) to \d+:\d+\)(?:, (.*))?$/s;

/**
 * The LuaSyntaxError an outcome describes, or null when the source parsed. Line and column are
 * 1-based, the column in UTF-16 units like an editor's; the message is the parser's first complaint.
 */
export function syntaxErrorOf(outcome: LuaParseOutcome, source: string): LuaSyntaxError | null {
  if (outcome.parsed) return null;
  if ('trap' in outcome) {
    // Its stack sits below everything else in its memory, so running out of it reads out of bounds.
    const nested = /out of bounds|call stack/i.test(outcome.trap);
    return { line: 1, column: 1, message: nested ? TOO_DEEPLY_NESTED : TOO_LARGE };
  }
  // Anything but a parse error (StyLua failing to format, which it was not asked to) means it parsed.
  if (!outcome.message.startsWith('error parsing:')) return null;
  const first = outcome.message
    .slice('error parsing:'.length)
    .replace(/^\s*\n - /, '')
    .split('\n - ')[0]
    ?.trim();
  const match = first ? PARSE_ERROR.exec(first) : null;
  if (!match) return { line: 1, column: 1, message: oneLine(first || 'does not parse') };
  const [, what = '', line = '1', column = '1', expected] = match;
  // An empty token is the end of the text: point there, as Lua's "near <eof>" does.
  if (what === 'unexpected token ``') {
    return {
      ...endOf(source),
      message: oneLine(['unexpected end of file', expected].filter(Boolean).join(', ')),
    };
  }
  return {
    line: Number(line),
    column: utf16Column(source, Number(line), Number(column)),
    message: oneLine([what, expected].filter(Boolean).join(', ')),
  };
}

/** The line and column just past the last character. */
function endOf(source: string): { line: number; column: number } {
  const lines = source.split(/\r\n|\r|\n/);
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}

/** full-moon counts characters (code points); editors count UTF-16 units, two for an emoji. */
function utf16Column(source: string, line: number, column: number): number {
  const characters = Array.from(source.split(/\r\n|\r|\n/)[line - 1] ?? '');
  const before = characters.slice(0, column - 1).join('');
  return before.length + 1 + Math.max(0, column - 1 - characters.length);
}

const MAX_MESSAGE_LENGTH = 200;

/** One line, and not the whole of a long token the parser quotes. */
function oneLine(message: string): string {
  const flat = message.replace(/\s+/g, ' ');
  return flat.length > MAX_MESSAGE_LENGTH ? `${flat.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : flat;
}

/**
 * Lua's file loader skips a leading byte-order mark; full-moon refuses it. Parse without it and put
 * the column back where the text has it.
 */
export function withoutBom(source: string): {
  text: string;
  restore: (error: LuaSyntaxError) => LuaSyntaxError;
} {
  if (!source.startsWith('\uFEFF')) return { text: source, restore: (error) => error };
  return {
    text: source.slice(1),
    restore: (error) => (error.line === 1 ? { ...error, column: error.column + 1 } : error),
  };
}

const require = createRequire(import.meta.url);
// The CommonJS build by name: only a module in require.cache can be loaded afresh (the package's
// `module-sync` condition would otherwise pick its ES module build for require).
const STYLUA_ENTRY = require.resolve('@johnnymorganz/stylua/stylua_lib_node.cjs');
let stylua = require(STYLUA_ENTRY) as Stylua;

/**
 * Where a Lua or Luau source fails to parse, or null when it parses, in this thread. A trap leaves
 * the WebAssembly instance unusable (its stack pointer stays where it broke), so it is loaded again.
 */
export function findLuaSyntaxError(source: string): LuaSyntaxError | null {
  const { text, restore } = withoutBom(source);
  const outcome = parseWith(stylua, text);
  if ('trap' in outcome) {
    delete require.cache[STYLUA_ENTRY];
    stylua = require(STYLUA_ENTRY) as Stylua;
    if (parsesAsLua53(text)) return null;
  }
  const error = syntaxErrorOf(outcome, text);
  return error && restore(error);
}

/** The one-line text a refused save shows: "Lua syntax error on line 3: unexpected token `=`, …". */
export function describeLuaSyntaxError(error: LuaSyntaxError): string {
  return `Lua syntax error on line ${error.line}: ${error.message}`;
}
