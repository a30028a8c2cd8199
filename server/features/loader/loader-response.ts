/*
 * What the loader sends when it refuses. An executor runs whatever comes back through
 * loadstring(), so a refusal is itself a tiny Lua chunk that tells the user why, never JSON or HTML
 * (which would only surface as a confusing syntax error in the executor).
 */

/** The prefix every loader message carries in the executor's console. */
const LOADER_MESSAGE_PREFIX = '[Scanline] ';

/**
 * `text` as a double-quoted Lua string literal that reads back as exactly `text`. Control
 * characters are written as 3-digit decimal escapes so a following digit cannot extend them.
 */
export function luaStringLiteral(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '\\') out += '\\\\';
    else if (char === '"') out += '\\"';
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\${String(code).padStart(3, '0')}`;
    else out += char;
  }
  return `${out}"`;
}

/** The Lua chunk a refused loader call answers with: it prints the reason and does nothing else. */
export function loaderRefusalChunk(message: string): string {
  return `print(${luaStringLiteral(LOADER_MESSAGE_PREFIX + message)})\n`;
}
