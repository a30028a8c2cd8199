import type { ScriptAccessType } from '../../../common/scripts.ts';
import type { AppContext } from '../../context.ts';
import { onScriptChanged } from '../scripts/script-events.ts';
import { scriptNameKey } from '../scripts/script-names.ts';
import { findScriptByFilename } from '../scripts/scripts.store.ts';
import type { PendingWrites } from '../security/pending-writes.ts';
import { ACCESS_TEXTS, type AccessDecision, LoaderAccess } from './loader-access.ts';
import { LoaderCache } from './loader-cache.ts';

export const LOADER_TEXTS = {
  notFound: (script: string) => `Script not found: ${script}`,
  keyRequired: ACCESS_TEXTS.keyRequired,
  challengePair: 'Bad loader request: nonce and sig must be given together',
  challengeNeedsHwid: 'Bad loader request: hwid is required with nonce and sig',
} as const;

/** What an executor asked the loader for (query validated). */
export interface LoaderRequest {
  script: string;
  key?: string;
  /** From &hwid= or, failing that, the X-Hardware-Id header. */
  hwid?: string;
  nonce?: string;
  sig?: string;
  /** The caller's address, for the audit log. */
  ip: string;
  /** The executor's User-Agent: what a new binding records of the device. */
  userAgent?: string;
}

/** The script's exact bytes, a bootstrap that fetches the device id first, or why the loader refuses. */
export type LoaderAnswer =
  | ServedScript
  | { kind: 'bootstrap'; key: string }
  | { kind: 'refused'; status: 400 | 401 | 403 | 404; message: string };

/**
 * A script's exact bytes, with the number of the key the loader checked (null for a FREE script),
 * which the route puts in the line it prepends (scanlinePreamble).
 */
export interface ServedScript {
  kind: 'script';
  body: Buffer;
  keyId: number | null;
}

/** A script as the loader serves it: its access type and its answer, content encoded once. */
interface CachedScript {
  accessType: ScriptAccessType;
  /** Private (not public): the download route wants an admin session, the loader needs a key. */
  isPublic: boolean;
  body: Buffer;
}

async function readScript(ctx: AppContext, filename: string): Promise<CachedScript | undefined> {
  const row = await findScriptByFilename(ctx.db, filename);
  if (!row) return undefined;
  return {
    accessType: row.access_type,
    isPublic: row.is_public === 1,
    body: Buffer.from(row.content, 'utf8'),
  };
}

function notFound(request: LoaderRequest): LoaderAnswer {
  return { kind: 'refused', status: 404, message: LOADER_TEXTS.notFound(request.script) };
}

/**
 * The loader's lookups. Public FREE scripts go to anyone; PREMIUM ones need what LoaderAccess grants.
 * A private FREE script is answered exactly like a name that does not exist (404, not 403): a FREE
 * script has no key that could authenticate its caller, and a distinct refusal would let anyone probe
 * which unpublished names exist. (A private PREMIUM script still loads with a valid key: the key is
 * the authentication "private" asks for.)
 * Scripts are served from memory and dropped when the bus says one was saved, retyped or deleted,
 * so a warm call (cached script, cached key, bound device) touches no database and never awaits.
 */
export class Loader {
  private readonly scripts = new LoaderCache<CachedScript>();
  private readonly access: LoaderAccess;
  private readonly unsubscribes: Array<() => void>;

  constructor(
    private readonly ctx: AppContext,
    pending: PendingWrites,
  ) {
    this.access = new LoaderAccess(ctx, pending);
    // Cached by name key, so every spelling of a name is one entry, dropped by one change.
    this.unsubscribes = [
      onScriptChanged(ctx, (filename) => this.scripts.invalidate(scriptNameKey(filename))),
      // Messages may have been missed while Redis was away: every script is read again.
      ctx.bus.onResync(() => this.scripts.clear()),
    ];
  }

  /** Stops listening to the bus (app close). */
  close(): void {
    for (const unsubscribe of this.unsubscribes) unsubscribe();
    this.scripts.clear();
    this.access.close();
  }

  load(request: LoaderRequest): LoaderAnswer | Promise<LoaderAnswer> {
    if ((request.nonce === undefined) !== (request.sig === undefined)) {
      return { kind: 'refused', status: 400, message: LOADER_TEXTS.challengePair };
    }
    if (request.nonce !== undefined && request.hwid === undefined) {
      return { kind: 'refused', status: 400, message: LOADER_TEXTS.challengeNeedsHwid };
    }
    const key = scriptNameKey(request.script);
    const script = this.scripts.get(key);
    if (script === undefined) return this.loadUncached(key, request);
    return this.serve(script, request);
  }

  private async loadUncached(key: string, request: LoaderRequest): Promise<LoaderAnswer> {
    const script = await this.scripts.fill(key, () => readScript(this.ctx, request.script));
    if (script === undefined) return notFound(request);
    return this.serve(script, request);
  }

  private serve(script: CachedScript, request: LoaderRequest): LoaderAnswer | Promise<LoaderAnswer> {
    if (script.accessType === 'FREE') {
      if (!script.isPublic) return notFound(request);
      return { kind: 'script', body: script.body, keyId: null };
    }
    const decision = this.access.check(request);
    if (decision instanceof Promise) return decision.then((settled) => this.answer(script, request, settled));
    return this.answer(script, request, decision);
  }

  private answer(script: CachedScript, request: LoaderRequest, decision: AccessDecision): LoaderAnswer {
    if (decision.kind === 'bootstrap') return { kind: 'bootstrap', key: request.key ?? '' };
    if (decision.kind !== 'granted') return decision;
    return { kind: 'script', body: script.body, keyId: decision.keyId };
  }
}
