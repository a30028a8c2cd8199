/*
 * The script the loader benchmark serves: the same bytes are saved as a PREMIUM script through the
 * admin API (bench/loader.ts) and held in memory by the baseline route (bench/loader-server.ts).
 */

export const BENCH_SCRIPT_FILE = 'bench-premium.lua';
/** A realistic premium script's size: 20 KiB. */
export const BENCH_SCRIPT_BYTES = 20 * 1024;

/** Valid Lua of exactly BENCH_SCRIPT_BYTES bytes (ASCII, so characters are bytes), the same every run. */
export function benchScriptContent(): string {
  const head = '-- Scanline loader benchmark: a 20 KiB premium script\nlocal chunks = {}\n';
  const tail = 'return #chunks\n';
  let body = '';
  for (let i = 1; ; i++) {
    const line = `chunks[${i}] = "${'scanline-bench-'.repeat(4)}${i}"\n`;
    if (head.length + body.length + line.length + tail.length + 8 > BENCH_SCRIPT_BYTES) break;
    body += line;
  }
  // A comment line pads the script to the exact size.
  const padding = BENCH_SCRIPT_BYTES - head.length - body.length - tail.length;
  return `${head}${body}--${'-'.repeat(padding - 3)}\n${tail}`;
}
