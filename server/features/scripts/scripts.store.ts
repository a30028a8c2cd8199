import { PostgresAdapter, type Selectable } from 'kysely';
import {
  countLines,
  type Script,
  type ScriptAccessType,
  type ScriptFileRecord,
  type ScriptLocation,
  type ScriptSummary,
  type ScriptVersion,
  utf8ByteLength,
} from '../../../common/scripts.ts';
import type { Db } from '../../db/index.ts';
import { scriptNameKey, scriptNameSkeleton } from './script-names.ts';
import type { ScriptsTable, ScriptVersionsTable } from './scripts.table.ts';

export type ScriptRow = Selectable<ScriptsTable>;
/** A script row without its content (nor its name keys): what lists read. */
export type ScriptListRow = Omit<ScriptRow, 'content' | 'name_key' | 'name_skeleton'>;
type ScriptVersionRow = Selectable<ScriptVersionsTable>;

export function scriptRowToSummary(row: ScriptListRow): ScriptSummary {
  return {
    name: row.filename,
    accessType: row.access_type,
    location: row.location,
    isPublic: row.is_public === 1,
    size: row.size,
    lines: row.line_count,
    version: row.current_version,
    lastModified: new Date(row.updated_at).toISOString(),
  };
}

export function scriptRowToScript(row: ScriptRow): Script {
  return { ...scriptRowToSummary(row), content: row.content };
}

/** Where the file manager says a file lives, and the path it downloads from. */
export function scriptRowToFileRecord(row: ScriptListRow): ScriptFileRecord {
  const location = row.location;
  return {
    id: row.id,
    filename: row.filename,
    storedFilename: `${location === 'project' ? 'scripts' : 'hosted-scripts'}/${row.filename}`,
    fileSize: row.size,
    location,
    uploadedAt: Math.floor(row.updated_at / 1000),
    url: `/api/hosted-scripts/${encodeURIComponent(row.filename)}`,
    isPublic: row.is_public === 1,
    accessType: row.access_type,
  };
}

export function scriptVersionRowToVersion(row: ScriptVersionRow): ScriptVersion {
  return {
    id: row.id,
    version: row.version,
    content: row.content,
    notes: row.notes,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** Every script, without its content. Unordered: callers sort by name. */
export async function listScriptRows(db: Db, location?: ScriptLocation): Promise<ScriptListRow[]> {
  let query = db
    .selectFrom('scripts')
    .select([
      'id',
      'filename',
      'location',
      'access_type',
      'is_public',
      'current_version',
      'size',
      'line_count',
      'shipped_sha256',
      'created_at',
      'updated_at',
    ]);
  if (location) query = query.where('location', '=', location);
  return query.execute();
}

/**
 * The script a name means, whatever its case (by name_key); a row the name matches exactly comes
 * first (only a row from before name keys, which shared its key with an older one, has none).
 */
export async function findScriptByFilename(db: Db, filename: string): Promise<ScriptRow | undefined> {
  const rows = await db
    .selectFrom('scripts')
    .selectAll()
    .where((eb) => eb.or([eb('name_key', '=', scriptNameKey(filename)), eb('filename', '=', filename)]))
    .execute();
  return rows.find((row) => row.filename === filename) ?? rows[0];
}

/** The name of the script that looks like `filename` (same confusable skeleton), if any. */
export async function findLookalikeScriptName(db: Db, filename: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('scripts')
    .select('filename')
    .where('name_skeleton', '=', scriptNameSkeleton(filename))
    .executeTakeFirst();
  return row?.filename;
}

export async function findScriptById(db: Db, id: number): Promise<ScriptRow | undefined> {
  return db.selectFrom('scripts').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface NewScript {
  filename: string;
  location: ScriptLocation;
  accessType: ScriptAccessType;
  isPublic: boolean;
  content: string;
  shippedSha256: string | null;
}

/** The columns that follow from the content: its UTF-8 size and its line count. */
function measured(content: string): { content: string; size: number; line_count: number } {
  return { content, size: utf8ByteLength(content), line_count: countLines(content) };
}

/**
 * Inserts the script at version 1 unless its name is taken (another save or instance got there
 * first, under this name, another case of it or a look-alike: every unique column guards it).
 * Returns the new row, or undefined when the name was taken.
 */
export async function insertScriptIfMissing(
  db: Db,
  script: NewScript,
  now: number,
): Promise<ScriptRow | undefined> {
  return db
    .insertInto('scripts')
    .values({
      filename: script.filename,
      name_key: scriptNameKey(script.filename),
      name_skeleton: scriptNameSkeleton(script.filename),
      location: script.location,
      access_type: script.accessType,
      is_public: script.isPublic ? 1 : 0,
      current_version: 1,
      ...measured(script.content),
      shipped_sha256: script.shippedSha256,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
}

export interface ScriptContentChange {
  content: string;
  /** Left as it is when undefined. */
  isPublic?: boolean;
  /** Left as it is when undefined. */
  shippedSha256?: string;
}

/**
 * Moves the script from `fromVersion` to `fromVersion + 1` with the new content. The condition on
 * the current version is the race guard: of two saves from the same version exactly one matches.
 * Returns whether this call moved it.
 */
export async function bumpScriptVersion(
  db: Db,
  id: number,
  fromVersion: number,
  change: ScriptContentChange,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('scripts')
    .set((eb) => ({
      current_version: eb('current_version', '+', 1),
      ...measured(change.content),
      updated_at: now,
      ...(change.isPublic === undefined ? {} : { is_public: change.isPublic ? 1 : 0 }),
      ...(change.shippedSha256 === undefined ? {} : { shipped_sha256: change.shippedSha256 }),
    }))
    .where('id', '=', id)
    .where('current_version', '=', fromVersion)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export interface NewScriptVersion {
  scriptId: number;
  version: number;
  content: string;
  notes: string | null;
}

export async function insertScriptVersion(
  db: Db,
  version: NewScriptVersion,
  now: number,
): Promise<ScriptVersionRow> {
  return db
    .insertInto('script_versions')
    .values({
      script_id: version.scriptId,
      version: version.version,
      content: version.content,
      notes: version.notes,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Newest first; the newest `limit` when given. */
export async function listScriptVersions(db: Db, scriptId: number, limit?: number): Promise<ScriptVersion[]> {
  let query = db
    .selectFrom('script_versions')
    .selectAll()
    .where('script_id', '=', scriptId)
    .orderBy('version', 'desc');
  if (limit !== undefined) query = query.limit(limit);
  const rows = await query.execute();
  return rows.map(scriptVersionRowToVersion);
}

/** Returns whether a row changed. */
export async function updateScriptAccessType(
  db: Db,
  id: number,
  accessType: ScriptAccessType,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('scripts')
    .set({ access_type: accessType, updated_at: now })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes the script (its versions go with it); returns whether a row was deleted. */
export async function deleteScriptById(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('scripts').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * How many scripts exist, read under a lock on every script row (PostgreSQL), so two transactions
 * that each delete one of the last two scripts cannot both see two: the second waits for the first
 * and then counts one. SQLite runs one write transaction at a time, so a plain count suffices there.
 */
export async function countScriptsForUpdate(db: Db): Promise<number> {
  let query = db.selectFrom('scripts').select('id');
  if (db.getExecutor().adapter instanceof PostgresAdapter) query = query.forUpdate();
  return (await query.execute()).length;
}
