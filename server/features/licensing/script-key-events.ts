import type { AppContext } from '../../context.ts';

/*
 * Every change to a script key (toggle, delete, a binding added or revoked) is published on the
 * bus, so every instance's loader drops its cached copy before the admin's call returns (locally)
 * or within milliseconds (through Redis). Published here, by the owner of the row; the loader listens.
 */
const SCRIPT_KEY_CHANGED = 'cache:script-key-changed';

/** The key (by its string) must be read again from the database. */
export function publishScriptKeyChanged(ctx: AppContext, scriptKey: string): Promise<void> {
  return ctx.bus.publish(SCRIPT_KEY_CHANGED, { scriptKey });
}

export function onScriptKeyChanged(ctx: AppContext, handler: (scriptKey: string) => void): () => void {
  return ctx.bus.subscribe(SCRIPT_KEY_CHANGED, (message) => {
    const scriptKey = (message as { scriptKey?: unknown }).scriptKey;
    if (typeof scriptKey === 'string') handler(scriptKey);
  });
}
