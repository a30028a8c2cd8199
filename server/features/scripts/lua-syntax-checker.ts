import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
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
 * is slow on Node 20), and leave some 400 MB of WebAssembly memory behind for good. The worker
 * reserves its heap in one step, gives its memory back by being replaced after a large script, and
 * is replaced as well when the parser traps.
 */
export async function checkLuaSyntax(source: string): Promise<LuaSyntaxError | null> {
  const { text, restore } = withoutBom(source);
  const outcome = await queue.run(text);
  const error = syntaxErrorOf(outcome, text);
  return error && restore(error);
}

/** Heap reserved up front: address space only, pages count once touched (1 MiB of Lua touches ~425 MB). */
const HEAP_RESERVE_BYTES = 512 * 1024 * 1024;
/** After a script this large the worker is replaced, so the memory it touched goes back. */
const RECYCLE_AFTER_CHARS = 256 * 1024;

const require = createRequire(import.meta.url);
const workerData = {
  // The bundler build's glue exposes the instance, so the worker can reserve the heap through it.
  glueUrl: pathToFileURL(require.resolve('@johnnymorganz/stylua/stylua_lib_bg.js')).href,
  wasmPath: require.resolve('@johnnymorganz/stylua/stylua_lib_bg.wasm'),
  heapReserveBytes: HEAP_RESERVE_BYTES,
  nothingToFormat: NOTHING_TO_FORMAT,
};

/**
 * Plain JavaScript, so it runs the same under tsx, Vitest and the built server. The parse is
 * common/lua-syntax.ts's parseWith: all syntaxes, a range past the end, no verification.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
import(workerData.glueUrl).then((stylua) => {
  const module = new WebAssembly.Module(readFileSync(workerData.wasmPath));
  const instance = new WebAssembly.Instance(module, { './stylua_lib_bg.js': stylua });
  stylua.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start();
  const { __wbindgen_malloc: malloc, __wbindgen_free: free } = instance.exports;
  free(malloc(workerData.heapReserveBytes, 1), workerData.heapReserveBytes, 1);
  const end = workerData.nothingToFormat;
  parentPort.on('message', (source) => {
    const config = stylua.Config.new();
    config.syntax = stylua.LuaVersion.All;
    let outcome = { parsed: true };
    try {
      stylua.formatCode(source, config, stylua.Range.from_values(end, end), stylua.OutputVerification.None);
    } catch (error) {
      outcome = typeof error === 'string' ? { parsed: false, message: error } : { parsed: false, trapped: true };
    }
    parentPort.postMessage(outcome);
  });
});
`;

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
    const worker = this.worker ?? this.start();
    try {
      const outcome = await new Promise<LuaParseOutcome>((resolve, reject) => {
        const onExit = (code: number) => reject(new Error(`Lua syntax worker exited (${code})`));
        worker.once('error', reject);
        worker.once('exit', onExit);
        worker.once('message', (answer: LuaParseOutcome) => {
          worker.off('error', reject);
          worker.off('exit', onExit);
          resolve(answer);
        });
        worker.postMessage(source);
      });
      if (('trapped' in outcome && outcome.trapped) || source.length > RECYCLE_AFTER_CHARS) this.stop();
      return outcome;
    } catch (error) {
      this.stop();
      throw error;
    }
  }

  private start(): Worker {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData });
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
