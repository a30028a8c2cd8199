import { describeLuaSyntaxError } from '../../../common/lua-syntax.ts';
import type { LuaSyntaxError } from '../../../common/scripts.ts';
import { badRequest, HttpError } from '../../http-error.ts';
import { checkLuaSyntax } from './lua-syntax-checker.ts';

/**
 * A save or upload refused for its Lua: 400 with the one-line text and, in the body, where it broke
 * (the scripts plugin's error handler adds `syntaxError`; elsewhere it still leaves as a plain {error}).
 */
export class LuaSyntaxRefusal extends HttpError {
  constructor(readonly syntaxError: LuaSyntaxError) {
    super(400, describeLuaSyntaxError(syntaxError));
  }
}

/**
 * Throws LuaSyntaxRefusal unless `content` parses, so nothing unparseable is ever stored or served.
 * (A leading BOM passes the check and stays in the stored text.)
 */
export async function assertLuaParses(content: string): Promise<void> {
  const syntaxError = await checkLuaSyntax(content);
  if (syntaxError) throw new LuaSyntaxRefusal(syntaxError);
}

// fatal: invalid bytes throw instead of becoming U+FFFD. ignoreBOM: keep a BOM as U+FEFF, so the
// text encodes back to exactly the bytes that came in.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The text of an uploaded or shipped file, byte for byte (BOM, CRLF and trailing spaces kept):
 * UTF-8, not empty, no NUL, and valid Lua. Throws a 400 naming what is wrong.
 */
export async function decodeScriptFile(bytes: Uint8Array): Promise<string> {
  if (bytes.length === 0) throw badRequest('file must not be empty');
  let content: string;
  try {
    content = strictUtf8.decode(bytes);
  } catch {
    throw badRequest('file must be UTF-8 text');
  }
  if (content.includes('\u0000')) throw badRequest('file must not contain NUL characters');
  if (content.replace(/^\uFEFF/, '').trim() === '') throw badRequest('file must not be blank');
  await assertLuaParses(content);
  return content;
}
