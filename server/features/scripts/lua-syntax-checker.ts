import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  LUAPARSE_OPTIONS,
  type LuaParseOutcome,
  NOTHING_TO_FORMAT,
  syntaxErrorOf,
  withoutBom,
} from '../../../common/lua-syntax.ts';
import type { LuaSyntaxError } from '../../../common/scripts.ts';

/**
 * The server's Lua/Luau syntax check (saves, uploads, shipped scripts and the editor's live check),
 * run in a worker thread. In this thread a 1 MiB script would hold the event loop for about a
 * second, its first time for many more (the WebAssembly heap grows 64 KiB at a time and each grow
 * is slow on Node 20), and leave its WebAssembly memory behind for good: some 400 MB for a 1 MiB
 * script, and over 3 GB for 1 MiB of dense one-line statements. So the worker reserves its heap in
 * one step, its memory is capped, and it is replaced after a large script (giving the memory back)
 * and whenever the parser traps.
 */
export async function checkLuaSyntax(source: string): Promise<LuaSyntaxError | null> {
  const { text, restore } = withoutBom(source);
  const outcome = await queue.run(text);
  const error = syntaxErrorOf(outcome, text);
  return error && restore(error);
}

/** Heap reserved up front: address space only, pages count once touched. */
const HEAP_RESERVE_BYTES = 512 * 1024 * 1024;
/** At most this much WebAssembly memory (a 1 MiB script of ordinary code needs about 425 MB). */
const MAX_MEMORY_BYTES = 1024 * 1024 * 1024;
/** After a script this large the worker is replaced, so the memory it touched goes back. */
const RECYCLE_AFTER_CHARS = 64 * 1024;

const WASM_PAGE_BYTES = 64 * 1024;
const require = createRequire(import.meta.url);
// The bundler build's glue takes an instance from outside, so the worker can make its own and
// reach its allocator to reserve the heap.
const GLUE_URL = pathToFileURL(require.resolve('@johnnymorganz/stylua/stylua_lib_bg.js')).href;
const WASM_PATH = require.resolve('@johnnymorganz/stylua/stylua_lib_bg.wasm');
const LUAPARSE_PATH = require.resolve('luaparse');

/**
 * Plain JavaScript, so it runs the same under tsx, Vitest and the built server. It does what
 * common/lua-syntax.ts's findLuaSyntaxError does: parseWith (all syntaxes, a range past the end, no
 * verification), and luaparse's verdict when full-moon breaks down. It answers { outcome, trapped }.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const luaparse = require(workerData.luaparsePath);
function parsesAsLua53(source) {
  try {
    luaparse.parse(source, workerData.luaparseOptions);
    return true;
  } catch {
    return false;
  }
}
import(workerData.glueUrl).then((stylua) => {
  const instance = new WebAssembly.Instance(workerData.module, { './stylua_lib_bg.js': stylua });
  stylua.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start();
  const { __wbindgen_malloc: malloc, __wbindgen_free: free } = instance.exports;
  free(malloc(workerData.heapReserveBytes, 1), workerData.heapReserveBytes, 1);
  const end = workerData.nothingToFormat;
  parentPort.on('message', (source) => {
    const config = stylua.Config.new();
    config.syntax = stylua.LuaVersion.All;
    let outcome = { parsed: true };
    let trapped = false;
    try {
      stylua.formatCode(source, config, stylua.Range.from_values(end, end), stylua.OutputVerification.None);
    } catch (error) {
      trapped = typeof error !== 'string';
      if (!trapped) outcome = { parsed: false, message: error };
      else if (!parsesAsLua53(source)) outcome = { parsed: false, trap: String(error && error.message) };
    }
    parentPort.postMessage({ outcome, trapped });
  });
});
`;

// Node has WebAssembly; the server's type libraries (ES2023 and node) do not describe it. A compiled
// module is opaque here: it only travels to the workers.
declare const WebAssembly: { compile(bytes: Uint8Array<ArrayBuffer>): Promise<object> };

let compiled: Promise<object> | null = null;

/** StyLua's WebAssembly with its memory capped, compiled once (off this thread) for every worker. */
function styluaModule(): Promise<object> {
  compiled ??= readFile(WASM_PATH).then((bytes) =>
    WebAssembly.compile(withMemoryMaximum(bytes, MAX_MEMORY_BYTES / WASM_PAGE_BYTES)),
  );
  return compiled;
}

interface WorkerAnswer {
  outcome: LuaParseOutcome;
  trapped: boolean;
}

/** One worker, one script at a time (it parses one at a time anyway), started on first use. */
class ParseQueue {
  private worker: Worker | null = null;
  private tail: Promise<unknown> = Promise.resolve();

  run(source: string): Promise<LuaParseOutcome> {
    const result = this.tail.then(() => this.parse(source));
    this.tail = result.catch(() => {});
    return result;
  }

  private async parse(source: string): Promise<LuaParseOutcome> {
    const worker = this.worker ?? (await this.start());
    try {
      const { outcome, trapped } = await new Promise<WorkerAnswer>((resolve, reject) => {
        const onExit = (code: number) => reject(new Error(`Lua syntax worker exited (${code})`));
        worker.once('error', reject);
        worker.once('exit', onExit);
        worker.once('message', (answer: WorkerAnswer) => {
          worker.off('error', reject);
          worker.off('exit', onExit);
          resolve(answer);
        });
        worker.postMessage(source);
      });
      // A trapped instance is unusable (its stack pointer stays where it broke).
      if (trapped || source.length > RECYCLE_AFTER_CHARS) this.stop();
      return outcome;
    } catch (error) {
      this.stop();
      throw error;
    }
  }

  private async start(): Promise<Worker> {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        module: await styluaModule(),
        glueUrl: GLUE_URL,
        luaparsePath: LUAPARSE_PATH,
        luaparseOptions: LUAPARSE_OPTIONS,
        heapReserveBytes: HEAP_RESERVE_BYTES,
        nothingToFormat: NOTHING_TO_FORMAT,
      },
    });
    // An idle checker never keeps the process alive.
    worker.unref();
    // A worker that fails between scripts is replaced on the next one (and never crashes the server).
    worker.on('error', () => {
      if (this.worker === worker) this.worker = null;
    });
    this.worker = worker;
    return worker;
  }

  private stop(): void {
    void this.worker?.terminate();
    this.worker = null;
  }
}

const queue = new ParseQueue();

/**
 * The module with a maximum on its one memory, which it declares without one: allocation past it
 * fails inside the parser (a trap, refused as too large) instead of taking the machine's memory.
 * A module laid out otherwise is returned unchanged.
 */
export function withMemoryMaximum(bytes: Uint8Array<ArrayBuffer>, maxPages: number): Uint8Array<ArrayBuffer> {
  const MEMORY_SECTION = 5;
  let at = 8; // past the magic number and version
  while (at < bytes.length) {
    const id = bytes[at];
    const [size, body] = readLeb128(bytes, at + 1);
    if (id === MEMORY_SECTION) {
      const [count, limits] = readLeb128(bytes, body);
      // One memory, flags 0 (a minimum only): exactly what wasm-bindgen's output declares.
      if (count !== 1 || bytes[limits] !== 0) return bytes;
      const [minPages] = readLeb128(bytes, limits + 1);
      const section = [1, 0x01, ...leb128(minPages), ...leb128(maxPages)];
      return Buffer.concat([
        bytes.subarray(0, at),
        Uint8Array.from([MEMORY_SECTION, ...leb128(section.length), ...section]),
        bytes.subarray(body + size),
      ]);
    }
    at = body + size;
  }
  return bytes;
}

/** An unsigned LEB128 number at `at`: its value and where the next field starts. */
function readLeb128(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  let shift = 0;
  let byte: number;
  let next = at;
  do {
    byte = bytes[next++] ?? 0;
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return [value, next];
}

function leb128(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  do {
    let byte = rest & 0x7f;
    rest = Math.floor(rest / 128);
    if (rest > 0) byte |= 0x80;
    out.push(byte);
  } while (rest > 0);
  return out;
}
