import type { AppContext } from '../../context.ts';

/*
 * Every change to a script (content, access type, visibility, delete) is published on the bus, so
 * every instance's loader drops its cached copy before the admin's call returns (locally) or within
 * milliseconds (through Redis). Published here, by the owner of the row; the loader listens.
 */
const SCRIPT_CHANGED = 'cache:script-changed';

/** The script (by filename) must be read again from the database. */
export function publishScriptChanged(ctx: AppContext, filename: string): Promise<void> {
  return ctx.bus.publish(SCRIPT_CHANGED, { filename });
}

export function onScriptChanged(ctx: AppContext, handler: (filename: string) => void): () => void {
  return ctx.bus.subscribe(SCRIPT_CHANGED, (message) => {
    const filename = (message as { filename?: unknown }).filename;
    if (typeof filename === 'string') handler(filename);
  });
}
