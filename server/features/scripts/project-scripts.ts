import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ScriptAccessType, scriptFilenameProblem } from '../../../common/scripts.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../http-error.ts';
import { decodeScriptFile } from './script-content.ts';
import { publishScriptChanged } from './script-events.ts';
import { addScriptVersion, createScriptVersionOne, ScriptVersionConflict } from './script-versions.ts';
import { findScriptByFilename } from './scripts.store.ts';

export const SHIPPED_NOTES = 'Shipped with the app';
export const RELEASE_UPDATE_NOTES = 'Updated with the app release';

/** What one start did with the files in SCRIPTS_DIR. */
export interface ProjectScriptsReport {
  added: string[];
  updated: string[];
  /** Files that cannot be served (bad name, not UTF-8, not Lua), with why. */
  skipped: { filename: string; problem: string }[];
}

/** A shipped file read from disk and checked like an upload. */
interface ShippedScript {
  filename: string;
  content: string;
  sha256: string;
  accessType: ScriptAccessType;
}

/** A shipped script marks itself PREMIUM with this line among its first lines. */
const ACCESS_MARKER = /^--\s*scanline:access\s+(FREE|PREMIUM)\s*$/m;
const ACCESS_MARKER_LINES = 5;

/**
 * The access type a shipped script declares with `-- scanline:access PREMIUM` (or FREE) in its
 * first lines; FREE without one. Only a newly seeded script takes it: afterwards the access type is
 * the admin's to change, and a release update leaves it alone.
 */
export function shippedAccessType(content: string): ScriptAccessType {
  const head = content
    .replace(/^\uFEFF/, '')
    .split('\n', ACCESS_MARKER_LINES)
    .join('\n');
  const declared = ACCESS_MARKER.exec(head)?.[1];
  return declared === 'PREMIUM' ? 'PREMIUM' : 'FREE';
}

async function readShippedScripts(dir: string, report: ProjectScriptsReport): Promise<ShippedScript[]> {
  let names: string[];
  try {
    names = (await readdir(dir, { withFileTypes: true }))
      .filter((entry) => entry.isFile() && entry.name.toLowerCase().endsWith('.lua'))
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    // No scripts directory (a bare deployment, a test): no project scripts, not a failed start.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const shipped: ShippedScript[] = [];
  for (const filename of names) {
    const problem = scriptFilenameProblem(filename);
    if (problem) {
      report.skipped.push({ filename, problem });
      continue;
    }
    const bytes = await readFile(join(dir, filename));
    try {
      const content = await decodeScriptFile(bytes);
      shipped.push({
        filename,
        content,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        accessType: shippedAccessType(content),
      });
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      report.skipped.push({ filename, problem: error.message });
    }
  }
  return shipped;
}

/**
 * Puts the scripts shipped in SCRIPTS_DIR into the store as location 'project': a new file at
 * version 1; a file whose bytes changed since the last start (a new release) as a new version, the
 * admin's edits staying in the history. Safe when several instances start at once: the insert
 * ignores a name taken meanwhile and the version bump is conditional, so each change lands once.
 */
export async function seedProjectScripts(ctx: AppContext): Promise<ProjectScriptsReport> {
  const report: ProjectScriptsReport = { added: [], updated: [], skipped: [] };
  for (const file of await readShippedScripts(ctx.config.SCRIPTS_DIR, report)) {
    try {
      const outcome = await seedProjectScript(ctx, file);
      if (outcome === 'added') report.added.push(file.filename);
      if (outcome === 'updated') {
        report.updated.push(file.filename);
        // Instances already running (the previous release) drop their cached copy.
        await publishScriptChanged(ctx, file.filename);
      }
    } catch (error) {
      // Another instance seeded or updated it at the same moment: its write is this one.
      if (!(error instanceof ScriptVersionConflict)) throw error;
    }
  }
  return report;
}

async function seedProjectScript(
  ctx: AppContext,
  file: ShippedScript,
): Promise<'added' | 'updated' | 'unchanged'> {
  const now = ctx.now();
  return ctx.db.transaction().execute(async (trx) => {
    const existing = await findScriptByFilename(trx, file.filename);
    if (!existing) {
      await createScriptVersionOne(
        trx,
        {
          filename: file.filename,
          location: 'project',
          accessType: file.accessType,
          isPublic: true,
          content: file.content,
          shippedSha256: file.sha256,
        },
        SHIPPED_NOTES,
        now,
      );
      return 'added';
    }
    // A hosted file that took this name before it shipped stays the admin's file.
    if (existing.location !== 'project' || existing.shipped_sha256 === file.sha256) return 'unchanged';
    await addScriptVersion(
      trx,
      existing,
      { content: file.content, shippedSha256: file.sha256, notes: RELEASE_UPDATE_NOTES },
      now,
    );
    return 'updated';
  });
}
