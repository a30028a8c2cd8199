import { SCRIPT_TEXTS, scriptFilenameProblem, type UploadScriptResponse } from '../../../common/scripts.ts';
import type { AppContext } from '../../context.ts';
import { badRequest, conflict, HttpError, notFound } from '../../http-error.ts';
import { insertAuditLog } from '../security/security.store.ts';
import { decodeScriptFile } from './script-content.ts';
import { publishScriptChanged } from './script-events.ts';
import { runScriptWrite, writeNextVersion } from './script-versions.ts';
import type { AdminClient } from './scripts.service.ts';
import { findScriptByFilename, scriptRowToFileRecord } from './scripts.store.ts';
import type { ScriptUpload } from './upload.ts';

export const PRIVATE_FILE_TEXT = 'This file is private: sign in as an administrator or use a valid key';
export const PROJECT_ROOT_NEW_FILE_TEXT =
  'Project Root only takes new versions of the scripts shipped with the app; upload new files to hosted-scripts/';

/**
 * Keeps an uploaded .lua file exactly as sent. hosted-scripts/: a new name makes a new file, a
 * hosted name a new version; a shipped name is refused (Project Root is where those go).
 * Project Root: only new versions of shipped scripts.
 */
export async function saveUploadedScript(
  ctx: AppContext,
  upload: ScriptUpload,
  client: AdminClient,
): Promise<{ status: 200 | 201; body: UploadScriptResponse }> {
  const problem = scriptFilenameProblem(upload.filename);
  if (problem) throw badRequest(problem);
  const content = await decodeScriptFile(upload.bytes);
  const { filename, directory, isPublic } = upload;
  const now = ctx.now();
  const saved = await runScriptWrite(ctx, { ip: client.ip, operation: 'script_upload' }, async (trx) => {
    const existing = await findScriptByFilename(trx, filename);
    if (directory === 'project-root' && existing?.location !== 'project') {
      throw badRequest(PROJECT_ROOT_NEW_FILE_TEXT);
    }
    if (directory === 'hosted-scripts' && existing?.location === 'project') {
      throw conflict(`${filename} ships with the app: choose Project Root to upload a new version of it`);
    }
    const notes = `Uploaded to ${directory === 'project-root' ? 'Project Root' : 'hosted-scripts/'}`;
    const written = await writeNextVersion(trx, filename, existing, { content, isPublic, notes }, now);
    await insertAuditLog(
      trx,
      {
        eventType: 'script_uploaded',
        success: true,
        ipAddress: client.ip,
        details: { filename, directory, isPublic, size: written.row.size, version: written.version.version },
      },
      now,
    );
    return {
      status: existing ? 200 : 201,
      body: {
        success: true,
        created: !existing,
        file: scriptRowToFileRecord(written.row),
        version: written.version.version,
      },
    } as const;
  });
  // After the commit, so no loader re-reads the old content into its cache.
  await publishScriptChanged(ctx, filename);
  return saved;
}

/**
 * The current content of a file for /api/hosted-scripts/{name}. Anyone gets a public FREE file;
 * anything else needs an admin session (a PREMIUM script never goes out keyless).
 */
export async function getScriptForDownload(
  ctx: AppContext,
  filename: string,
  isAdmin: boolean,
): Promise<{ filename: string; content: string; isOpenToAll: boolean }> {
  const row = await findScriptByFilename(ctx.db, filename);
  if (!row) throw notFound(SCRIPT_TEXTS.fileNotFound);
  const isOpenToAll = row.is_public === 1 && row.access_type === 'FREE';
  if (!isOpenToAll && !isAdmin) throw new HttpError(401, PRIVATE_FILE_TEXT);
  return { filename: row.filename, content: row.content, isOpenToAll };
}
