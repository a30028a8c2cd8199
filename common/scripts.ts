import { z } from 'zod';

/*
 * The script store on the wire: script management, the file manager and the loader all speak of
 * the same files. Times are ISO strings except `uploadedAt` (unix seconds, as the spec's file record).
 */

/** FREE scripts load keyless; PREMIUM ones need a script key bound to the device (licensing). */
export const SCRIPT_ACCESS_TYPES = ['FREE', 'PREMIUM'] as const;
export type ScriptAccessType = (typeof SCRIPT_ACCESS_TYPES)[number];

/** `project`: shipped in scripts/, never deletable. `hosted-scripts`: uploaded or created by the admin. */
export const SCRIPT_LOCATIONS = ['project', 'hosted-scripts'] as const;
export type ScriptLocation = (typeof SCRIPT_LOCATIONS)[number];

/** The file manager's save locations: a new file, or a new version of a shipped script. */
export const UPLOAD_DIRECTORIES = ['hosted-scripts', 'project-root'] as const;
export type UploadDirectory = (typeof UPLOAD_DIRECTORIES)[number];

/** Largest script, in bytes (uploads and saves alike). */
export const MAX_SCRIPT_BYTES = 1024 * 1024;
/** Longest file name, in characters. */
export const MAX_SCRIPT_FILENAME_LENGTH = 100;
/** Longest version note, in characters. */
export const MAX_VERSION_NOTES_LENGTH = 500;
/** How many versions the management screen lists. */
export const VERSION_HISTORY_SHOWN = 5;

// The shipped "universal" script, which the management screen opens by default.
export { PREMIUM_PANEL_FILE, PREMIUM_SCRIPT_FILE, UNIVERSAL_SCRIPT_FILE } from './public-defaults.ts';

/** Characters a file name may not hold: path separators and what Windows refuses in a download name. */
const FORBIDDEN_FILENAME_CHARACTERS = /[\\/:*?"<>|]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what it looks for
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/** Why `name` is not an acceptable script file name, or null when it is. Used by server and screens. */
export function scriptFilenameProblem(name: string): string | null {
  if (name.trim() === '') return 'filename is required';
  if (name.length > MAX_SCRIPT_FILENAME_LENGTH)
    return `filename must be at most ${MAX_SCRIPT_FILENAME_LENGTH} characters`;
  if (CONTROL_CHARACTERS.test(name)) return 'filename must not contain control characters';
  if (name.includes('..')) return 'filename must not contain ".."';
  if (FORBIDDEN_FILENAME_CHARACTERS.test(name))
    return 'filename must not contain path separators or any of : * ? " < > |';
  if (name !== name.trim()) return 'filename must not start or end with spaces';
  if (name.startsWith('.')) return 'filename must not start with a dot';
  if (!/\.lua$/i.test(name) || name.length <= 4) return 'only .lua files are accepted';
  return null;
}

/** A new script's name from what the admin typed: trimmed, with '.lua' appended if missing. */
export function toScriptFilename(typed: string): string {
  const name = typed.trim();
  return /\.lua$/i.test(name) ? name : `${name}.lua`;
}

/** The two-line comment a new script starts with. */
export function newScriptTemplate(filename: string, createdAt: Date): string {
  return `-- ${filename}\n-- Created ${createdAt.toISOString().slice(0, 10)} with Scanline\n`;
}

/** Lines as an editor counts them: an empty file has one line, a trailing newline starts another. */
export function countLines(content: string): number {
  return content.split('\n').length;
}

/** Size of the text in UTF-8 bytes, as stored and served. */
export function utf8ByteLength(content: string): number {
  return new TextEncoder().encode(content).length;
}

const FilenameSchema = z.string({ error: 'filename must be a string' }).superRefine((name, ctx) => {
  const problem = scriptFilenameProblem(name);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** POST /api/admin/scripts/save: creates the script when new, else adds a version. */
export const SaveScriptSchema = z.object(
  {
    filename: FilenameSchema,
    content: z
      .string({ error: 'content must be a string' })
      .refine((c) => c.trim() !== '', 'content must not be blank')
      .refine((c) => utf8ByteLength(c) <= MAX_SCRIPT_BYTES, 'content must be at most 1 MiB')
      .refine((c) => !c.includes('\u0000'), 'content must not contain NUL characters'),
    notes: z
      .string({ error: 'notes must be a string' })
      .max(MAX_VERSION_NOTES_LENGTH, `notes must be at most ${MAX_VERSION_NOTES_LENGTH} characters`)
      .nullable()
      .optional(),
    /**
     * The version the editor started from. When another save landed since, the server answers 409
     * instead of silently replacing it. Absent: save on top of whatever is current.
     */
    baseVersion: z.number().int().min(0).optional(),
  },
  { error: 'Request body must be a JSON object with filename and content' },
);
export type SaveScriptRequest = z.infer<typeof SaveScriptSchema>;

/** POST /api/admin/scripts/check-syntax: the editor's live check, by the same parser a save uses. */
export const CheckSyntaxSchema = z.object(
  {
    content: z
      .string({ error: 'content must be a string' })
      .refine((c) => utf8ByteLength(c) <= MAX_SCRIPT_BYTES, 'content must be at most 1 MiB'),
  },
  { error: 'Request body must be a JSON object with content' },
);

/** POST /api/admin/scripts/deploy (the spec keeps this call; a save already deploys). */
export const DeployScriptSchema = z.object(
  { filename: FilenameSchema },
  { error: 'Request body must be a JSON object with filename' },
);

/** PUT /api/admin/scripts/{filename}/access-type. */
export const AccessTypeSchema = z.object(
  {
    accessType: z.enum(SCRIPT_ACCESS_TYPES, { error: 'accessType must be FREE or PREMIUM' }),
  },
  { error: 'Request body must be a JSON object with accessType' },
);

const ScriptAccessTypeSchema = z.enum(SCRIPT_ACCESS_TYPES);
const ScriptLocationSchema = z.enum(SCRIPT_LOCATIONS);

/** One script as the management screen lists it. */
export const ScriptSummarySchema = z
  .object({
    name: z.string(),
    accessType: ScriptAccessTypeSchema,
    location: ScriptLocationSchema,
    /** Downloadable by anyone from /api/hosted-scripts/{name} (FREE scripts only). */
    isPublic: z.boolean(),
    /** UTF-8 bytes of the current version. */
    size: z.number().int(),
    lines: z.number().int(),
    /** Current version number (1 for a new script). */
    version: z.number().int(),
    lastModified: z.string(),
  })
  .meta({ id: 'ScriptSummary' });
export type ScriptSummary = z.infer<typeof ScriptSummarySchema>;

/** A script with its current content. */
export const ScriptSchema = z
  .object({ ...ScriptSummarySchema.shape, content: z.string() })
  .meta({ id: 'Script' });
export type Script = z.infer<typeof ScriptSchema>;

export const ScriptVersionSchema = z
  .object({
    id: z.number().int(),
    version: z.number().int(),
    content: z.string(),
    notes: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'ScriptVersion' });
export type ScriptVersion = z.infer<typeof ScriptVersionSchema>;

/** A file as the file manager lists it. */
export const ScriptFileRecordSchema = z
  .object({
    id: z.number().int(),
    filename: z.string(),
    /** Where the file lives: `scripts/{name}` (shipped) or `hosted-scripts/{name}` (database). */
    storedFilename: z.string(),
    fileSize: z.number().int(),
    location: ScriptLocationSchema,
    /** Unix seconds of the current version. */
    uploadedAt: z.number(),
    /** Download path on this server: /api/hosted-scripts/{filename}. */
    url: z.string(),
    isPublic: z.boolean(),
    accessType: ScriptAccessTypeSchema,
  })
  .meta({ id: 'ScriptFile' });
export type ScriptFileRecord = z.infer<typeof ScriptFileRecordSchema>;

/** Where a refused Lua source breaks: 1-based line and column, and the parser's message. */
export const LuaSyntaxErrorSchema = z
  .object({ line: z.number().int(), column: z.number().int(), message: z.string() })
  .meta({ id: 'LuaSyntaxError' });
export type LuaSyntaxError = z.infer<typeof LuaSyntaxErrorSchema>;

/** POST /api/admin/scripts/check-syntax: 200 either way, a syntax error is what the check found. */
export const CheckSyntaxResponseSchema = z
  .discriminatedUnion('ok', [
    z.object({ ok: z.literal(true) }),
    z.object({ ok: z.literal(false), error: z.string(), syntaxError: LuaSyntaxErrorSchema }),
  ])
  .meta({ id: 'LuaSyntaxCheck' });
export type CheckSyntaxResponse = z.infer<typeof CheckSyntaxResponseSchema>;

/** GET /api/admin/scripts */
export const ScriptListResponseSchema = z
  .object({ scripts: z.array(ScriptSummarySchema) })
  .meta({ id: 'ScriptList' });
export type ScriptListResponse = z.infer<typeof ScriptListResponseSchema>;
/** GET /api/admin/scripts/{filename} */
export const ScriptResponseSchema = z.object({ script: ScriptSchema }).meta({ id: 'ScriptResponse' });
export type ScriptResponse = z.infer<typeof ScriptResponseSchema>;
/** GET /api/admin/scripts/{filename}/versions[?limit=N]: newest first (every version is kept). */
export const ScriptVersionsResponseSchema = z
  .object({ versions: z.array(ScriptVersionSchema) })
  .meta({ id: 'ScriptVersions' });
export type ScriptVersionsResponse = z.infer<typeof ScriptVersionsResponseSchema>;
/** POST /api/admin/scripts/save (201 when the script is new, else 200). */
export const SaveScriptResponseSchema = z
  .object({
    success: z.literal(true),
    created: z.boolean(),
    script: ScriptSummarySchema,
    version: ScriptVersionSchema,
  })
  .meta({ id: 'ScriptSaved' });
export type SaveScriptResponse = z.infer<typeof SaveScriptResponseSchema>;
/** POST /api/admin/scripts/deploy */
export const DeployScriptResponseSchema = z
  .object({ success: z.literal(true), filename: z.string(), version: z.number().int() })
  .meta({ id: 'ScriptDeployed' });
export type DeployScriptResponse = z.infer<typeof DeployScriptResponseSchema>;
/** PUT /api/admin/scripts/{filename}/access-type */
export const AccessTypeResponseSchema = z
  .object({ success: z.literal(true), script: ScriptSummarySchema })
  .meta({ id: 'ScriptAccessTypeChanged' });
export type AccessTypeResponse = z.infer<typeof AccessTypeResponseSchema>;
/** DELETE /api/admin/scripts/{filename} and DELETE /api/admin/hosted-scripts/{id} */
export const DeleteScriptResponseSchema = z
  .object({ success: z.literal(true), filename: z.string() })
  .meta({ id: 'ScriptDeleted' });
export type DeleteScriptResponse = z.infer<typeof DeleteScriptResponseSchema>;
/** GET /api/admin/hosted-scripts/list (hosted-scripts location only). */
export const HostedScriptListResponseSchema = z
  .object({ files: z.array(ScriptFileRecordSchema) })
  .meta({ id: 'HostedScriptFileList' });
export type HostedScriptListResponse = z.infer<typeof HostedScriptListResponseSchema>;
/** GET /api/admin/all-scripts/list answers a bare ScriptFileRecord[] (project and hosted). */
export const AllScriptsListResponseSchema = z.array(ScriptFileRecordSchema).meta({ id: 'ScriptFileList' });
export type AllScriptsListResponse = z.infer<typeof AllScriptsListResponseSchema>;
/** POST /api/admin/scripts/upload (201 for a new file, 200 for a new version of an existing one). */
export const UploadScriptResponseSchema = z
  .object({
    success: z.literal(true),
    created: z.boolean(),
    file: ScriptFileRecordSchema,
    version: z.number().int(),
  })
  .meta({ id: 'ScriptUploaded' });
export type UploadScriptResponse = z.infer<typeof UploadScriptResponseSchema>;
/**
 * A save or upload refused for its Lua syntax answers 400 with this body: `error` reads
 * "Lua syntax error on line {line}: {message}".
 */
export interface LuaSyntaxErrorResponse {
  error: string;
  syntaxError: LuaSyntaxError;
}

/** Texts the script calls answer with (the screens show them as the server's message). */
export const SCRIPT_TEXTS = {
  notFound: 'Script not found',
  fileNotFound: 'File not found',
  lastScript: 'Cannot delete the last script',
  projectFileDelete: 'Project files cannot be deleted from the file manager',
  projectScriptDelete: 'Project scripts ship with the app and cannot be deleted',
  versionConflict: 'This script was saved by someone else meanwhile',
} as const;
