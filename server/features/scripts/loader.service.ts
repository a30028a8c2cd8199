import type { AppContext } from '../../context.ts';
import { findScriptByFilename } from './scripts.store.ts';

export const LOADER_TEXTS = {
  notFound: (script: string) => `Script not found: ${script}`,
  keyRequired: 'This script needs a premium key: redeem a code in the universal script',
  keyRefused: 'This key is invalid or expired: redeem a new code in the universal script',
} as const;

/** What an executor asked the loader for. */
export interface LoaderRequest {
  script: string;
  key?: string;
  hwid?: string;
}

/** The script's exact content, or why the loader refuses. */
export type LoaderAnswer =
  | { kind: 'script'; filename: string; content: string }
  | { kind: 'refused'; status: 401 | 403 | 404; message: string };

/**
 * The loader's one lookup. FREE scripts go to anyone; PREMIUM ones need a valid script key bound to
 * the device. No script keys exist yet, so every key is refused here: the licensing work checks keys
 * and hardware bindings (and may cache hot scripts) in this function, and nowhere else.
 */
export async function getScriptForLoader(ctx: AppContext, request: LoaderRequest): Promise<LoaderAnswer> {
  const row = await findScriptByFilename(ctx.db, request.script);
  if (!row) return { kind: 'refused', status: 404, message: LOADER_TEXTS.notFound(request.script) };
  if (row.access_type === 'FREE') return { kind: 'script', filename: row.filename, content: row.content };
  if (request.key === undefined) return { kind: 'refused', status: 401, message: LOADER_TEXTS.keyRequired };
  return { kind: 'refused', status: 403, message: LOADER_TEXTS.keyRefused };
}
