import { SCRIPT_TEXTS, type ScriptVersion } from '../../../common/scripts.ts';
import type { AppContext } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Db } from '../../db/index.ts';
import { badRequest, conflict, HttpError } from '../../http-error.ts';
import { insertAuditLog } from '../security/security.store.ts';
import { lookalikeNameText, newScriptNameProblem } from './script-names.ts';
import {
  bumpScriptVersion,
  findLookalikeScriptName,
  findScriptById,
  insertScriptIfMissing,
  insertScriptVersion,
  type NewScript,
  type ScriptContentChange,
  type ScriptRow,
  scriptVersionRowToVersion,
} from './scripts.store.ts';

/*
 * Every write that makes a version goes through here (editor saves, uploads, shipped scripts), so
 * each one is guarded the same way: a conditional update on the current version plus the
 * unique(script_id, version) constraint, inside the caller's transaction.
 */

/** Another save landed first. Thrown inside the transaction, so the loser writes nothing. */
export class ScriptVersionConflict extends HttpError {
  constructor(
    readonly filename: string,
    readonly currentVersion: number | null,
  ) {
    super(
      409,
      currentVersion === null
        ? SCRIPT_TEXTS.versionConflict
        : `${SCRIPT_TEXTS.versionConflict} (now version ${currentVersion})`,
    );
  }
}

export interface WrittenVersion {
  row: ScriptRow;
  version: ScriptVersion;
}

async function insertVersionGuarded(
  trx: Db,
  scriptId: number,
  filename: string,
  version: number,
  content: string,
  notes: string | null,
  now: number,
): Promise<ScriptVersion> {
  try {
    return scriptVersionRowToVersion(
      await insertScriptVersion(trx, { scriptId, version, content, notes }, now),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw new ScriptVersionConflict(filename, version);
    throw error;
  }
}

/** Creates the script at version 1; a name taken meanwhile (a concurrent create) is a conflict. */
export async function createScriptVersionOne(
  trx: Db,
  script: NewScript,
  notes: string | null,
  now: number,
): Promise<WrittenVersion> {
  const row = await insertScriptIfMissing(trx, script, now);
  if (!row) throw new ScriptVersionConflict(script.filename, null);
  const version = await insertVersionGuarded(trx, row.id, row.filename, 1, row.content, notes, now);
  return { row, version };
}

/**
 * Adds the next version of `script` (as read in this transaction). With `baseVersion`, the caller
 * insists on building on that version: anything newer is a conflict.
 */
export async function addScriptVersion(
  trx: Db,
  script: ScriptRow,
  change: ScriptContentChange & { notes: string | null; baseVersion?: number },
  now: number,
): Promise<WrittenVersion> {
  const from = script.current_version;
  if (change.baseVersion !== undefined && change.baseVersion !== from) {
    throw new ScriptVersionConflict(script.filename, from);
  }
  if (!(await bumpScriptVersion(trx, script.id, from, change, now))) {
    const current = await findScriptById(trx, script.id);
    throw new ScriptVersionConflict(script.filename, current?.current_version ?? null);
  }
  const version = await insertVersionGuarded(
    trx,
    script.id,
    script.filename,
    from + 1,
    change.content,
    change.notes,
    now,
  );
  const row = await findScriptById(trx, script.id);
  if (!row) throw new Error(`script ${script.id} vanished while saving`);
  return { row, version };
}

/**
 * What a save or an upload writes: the next version of `existing` (found by name, case aside), or,
 * for a new name, a hosted FREE script at version 1 (public unless the change says otherwise). A new
 * name must hold no invisible or text-direction characters nor mix Latin, Cyrillic and Greek (400),
 * and must not look like an existing script's (409).
 */
export async function writeNextVersion(
  trx: Db,
  filename: string,
  existing: ScriptRow | undefined,
  change: ScriptContentChange & { notes: string | null; baseVersion?: number },
  now: number,
): Promise<WrittenVersion> {
  if (existing) return addScriptVersion(trx, existing, change, now);
  const problem = newScriptNameProblem(filename);
  if (problem) throw badRequest(problem);
  const lookalike = await findLookalikeScriptName(trx, filename);
  if (lookalike !== undefined) throw conflict(lookalikeNameText(filename, lookalike));
  const script: NewScript = {
    filename,
    location: 'hosted-scripts',
    accessType: 'FREE',
    isPublic: change.isPublic ?? true,
    content: change.content,
    shippedSha256: null,
  };
  return createScriptVersionOne(trx, script, change.notes, now);
}

/**
 * Runs a version-making transaction. A conflict rolls it back whole, then leaves a
 * transaction_conflict audit row (written after the rollback, so it survives it) and goes to the caller.
 */
export async function runScriptWrite<T>(
  ctx: AppContext,
  audit: { ip: string | null; operation: string },
  write: (trx: Db) => Promise<T>,
): Promise<T> {
  try {
    return await ctx.db.transaction().execute(write);
  } catch (error) {
    if (error instanceof ScriptVersionConflict) {
      await insertAuditLog(
        ctx.db,
        {
          eventType: 'transaction_conflict',
          success: false,
          ipAddress: audit.ip,
          details: {
            operation: audit.operation,
            filename: error.filename,
            currentVersion: error.currentVersion,
          },
        },
        ctx.now(),
      );
    }
    throw error;
  }
}
