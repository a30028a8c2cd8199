import {
  type SaveScriptRequest,
  type SaveScriptResponse,
  SCRIPT_TEXTS,
  type Script,
  type ScriptAccessType,
  type ScriptFileRecord,
  type ScriptSummary,
  type ScriptVersion,
} from '../../../common/scripts.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/index.ts';
import { conflict, HttpError, notFound } from '../../http-error.ts';
import { insertAuditLog } from '../security/security.store.ts';
import { assertLuaParses } from './script-content.ts';
import { publishScriptChanged } from './script-events.ts';
import { runScriptWrite, writeNextVersion } from './script-versions.ts';
import {
  countScriptsForUpdate,
  deleteScriptById,
  findScriptByFilename,
  findScriptById,
  listScriptRows,
  listScriptVersions,
  type ScriptListRow,
  type ScriptRow,
  scriptRowToFileRecord,
  scriptRowToScript,
  scriptRowToSummary,
  updateScriptAccessType,
} from './scripts.store.ts';

// The public feature reads the page config through this module (it predates the split).
export { getScriptsPageConfig, seedScriptsPageConfig } from './scripts-page.service.ts';

/** Who asked, for the audit log. */
export interface AdminClient {
  ip: string;
}

/** By name, case-insensitively, the same on both dialects (their collations differ). */
function byFilename(a: ScriptListRow, b: ScriptListRow): number {
  return (
    a.filename.localeCompare(b.filename, 'en', { sensitivity: 'base' }) || (a.filename < b.filename ? -1 : 1)
  );
}

async function findScriptOr404(db: Db, filename: string): Promise<ScriptRow> {
  const row = await findScriptByFilename(db, filename);
  if (!row) throw notFound(SCRIPT_TEXTS.notFound);
  return row;
}

export async function listScripts(ctx: AppContext): Promise<ScriptSummary[]> {
  return (await listScriptRows(ctx.db)).sort(byFilename).map(scriptRowToSummary);
}

export async function getScript(ctx: AppContext, filename: string): Promise<Script> {
  return scriptRowToScript(await findScriptOr404(ctx.db, filename));
}

/** The newest `limit` versions (every one without it), newest first. */
export async function getScriptVersions(
  ctx: AppContext,
  filename: string,
  limit?: number,
): Promise<ScriptVersion[]> {
  return listScriptVersions(ctx.db, (await findScriptOr404(ctx.db, filename)).id, limit);
}

/**
 * Saves from the editor: a new name creates a hosted, public, FREE script at version 1; an existing
 * one gets the next version (live at once: the loader serves the current version). Lua that does not
 * parse is refused before anything is written.
 */
export async function saveScript(
  ctx: AppContext,
  input: SaveScriptRequest,
  client: AdminClient,
): Promise<SaveScriptResponse> {
  await assertLuaParses(input.content);
  const now = ctx.now();
  const notes = input.notes?.trim() || null;
  const saved = await runScriptWrite(ctx, { ip: client.ip, operation: 'script_save' }, async (trx) => {
    const existing = await findScriptByFilename(trx, input.filename);
    // The editor started from a version of a script that is gone: do not silently bring it back.
    if (!existing && input.baseVersion) throw notFound(SCRIPT_TEXTS.notFound);
    const written = await writeNextVersion(
      trx,
      input.filename,
      existing,
      { content: input.content, notes, baseVersion: input.baseVersion },
      now,
    );
    await insertAuditLog(
      trx,
      {
        eventType: 'script_saved',
        success: true,
        ipAddress: client.ip,
        details: {
          filename: input.filename,
          version: written.version.version,
          size: written.row.size,
          created: !existing,
        },
      },
      now,
    );
    return {
      success: true,
      created: !existing,
      script: scriptRowToSummary(written.row),
      version: written.version,
    } satisfies SaveScriptResponse;
  });
  // After the commit, so no loader re-reads the old content into its cache.
  await publishScriptChanged(ctx, input.filename);
  return saved;
}

/** A save already deploys; this re-checks that what is live parses and says which version it is. */
export async function deployScript(
  ctx: AppContext,
  filename: string,
  client: AdminClient,
): Promise<{ success: true; filename: string; version: number }> {
  const row = await findScriptOr404(ctx.db, filename);
  await assertLuaParses(row.content);
  await insertAuditLog(
    ctx.db,
    {
      eventType: 'script_deployed',
      success: true,
      ipAddress: client.ip,
      details: { filename, version: row.current_version },
    },
    ctx.now(),
  );
  return { success: true, filename: row.filename, version: row.current_version };
}

export async function setScriptAccessType(
  ctx: AppContext,
  filename: string,
  accessType: ScriptAccessType,
  client: AdminClient,
): Promise<ScriptSummary> {
  const now = ctx.now();
  const summary = await ctx.db.transaction().execute(async (trx) => {
    const row = await findScriptOr404(trx, filename);
    await updateScriptAccessType(trx, row.id, accessType, now);
    await insertAuditLog(
      trx,
      {
        eventType: 'script_access_changed',
        success: true,
        ipAddress: client.ip,
        details: { filename, from: row.access_type, to: accessType },
      },
      now,
    );
    const updated = await findScriptById(trx, row.id);
    if (!updated) throw new Error(`script ${row.id} vanished while changing its access type`);
    return scriptRowToSummary(updated);
  });
  await publishScriptChanged(ctx, filename);
  return summary;
}

/** What a delete refuses with, depending on which screen asked. */
interface DeleteTexts {
  notFound: string;
  projectFile: string;
}

/**
 * Deletes a hosted script and its versions. Shipped (project) scripts stay; so does the last
 * script. The count is taken under a lock in the same transaction as the delete, so two concurrent
 * deletes of the last two scripts cannot remove both.
 */
async function deleteScriptRow(
  ctx: AppContext,
  find: (trx: Db) => Promise<ScriptRow | undefined>,
  texts: DeleteTexts,
  client: AdminClient,
): Promise<{ success: true; filename: string }> {
  const now = ctx.now();
  const deleted = await ctx.db.transaction().execute(async (trx) => {
    const total = await countScriptsForUpdate(trx);
    const row = await find(trx);
    if (!row) throw notFound(texts.notFound);
    if (row.location === 'project') throw new HttpError(403, texts.projectFile);
    if (total <= 1) throw conflict(SCRIPT_TEXTS.lastScript);
    if (!(await deleteScriptById(trx, row.id))) throw notFound(texts.notFound);
    await insertAuditLog(
      trx,
      {
        eventType: 'script_deleted',
        success: true,
        ipAddress: client.ip,
        details: { filename: row.filename, id: row.id, versions: row.current_version },
      },
      now,
    );
    return { success: true as const, filename: row.filename };
  });
  await publishScriptChanged(ctx, deleted.filename);
  return deleted;
}

/** From script management. */
export async function deleteScript(
  ctx: AppContext,
  filename: string,
  client: AdminClient,
): Promise<{ success: true; filename: string }> {
  return deleteScriptRow(
    ctx,
    (trx) => findScriptByFilename(trx, filename),
    { notFound: SCRIPT_TEXTS.notFound, projectFile: SCRIPT_TEXTS.projectScriptDelete },
    client,
  );
}

/** From the file manager. */
export async function deleteScriptFile(
  ctx: AppContext,
  id: number,
  client: AdminClient,
): Promise<{ success: true; filename: string }> {
  return deleteScriptRow(
    ctx,
    (trx) => findScriptById(trx, id),
    { notFound: SCRIPT_TEXTS.fileNotFound, projectFile: SCRIPT_TEXTS.projectFileDelete },
    client,
  );
}

/** The file manager's list: shipped files first, then hosted ones, each by name. */
export async function listScriptFiles(ctx: AppContext): Promise<ScriptFileRecord[]> {
  const rows = (await listScriptRows(ctx.db)).sort(byFilename);
  return [
    ...rows.filter((r) => r.location === 'project'),
    ...rows.filter((r) => r.location !== 'project'),
  ].map(scriptRowToFileRecord);
}

export async function listHostedScriptFiles(ctx: AppContext): Promise<ScriptFileRecord[]> {
  return (await listScriptRows(ctx.db, 'hosted-scripts')).sort(byFilename).map(scriptRowToFileRecord);
}
