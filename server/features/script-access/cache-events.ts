import type { AppContext } from '../../context.ts';

/*
 * What the loader's in-memory caches listen to. Every change to a script key (toggle, delete, a
 * binding added or revoked) or to a script (content, access type, delete) is published here, on
 * the bus, so every instance drops its cached copy before the admin's call returns (locally) or
 * within milliseconds (through Redis).
 */

const SCRIPT_KEY_CHANGED = 'cache:script-key-changed';
const SCRIPT_CHANGED = 'cache:script-changed';

/** The key (by its string) must be read again from the database. */
export function publishScriptKeyChanged(ctx: AppContext, scriptKey: string): Promise<void> {
  return ctx.bus.publish(SCRIPT_KEY_CHANGED, { scriptKey });
}

/** The script (by filename) must be read again from the database. */
export function publishScriptChanged(ctx: AppContext, filename: string): Promise<void> {
  return ctx.bus.publish(SCRIPT_CHANGED, { filename });
}

export function onScriptKeyChanged(ctx: AppContext, handler: (scriptKey: string) => void): () => void {
  return ctx.bus.subscribe(SCRIPT_KEY_CHANGED, (message) => {
    const scriptKey = (message as { scriptKey?: unknown }).scriptKey;
    if (typeof scriptKey === 'string') handler(scriptKey);
  });
}

export function onScriptChanged(ctx: AppContext, handler: (filename: string) => void): () => void {
  return ctx.bus.subscribe(SCRIPT_CHANGED, (message) => {
    const filename = (message as { filename?: unknown }).filename;
    if (typeof filename === 'string') handler(filename);
  });
}
