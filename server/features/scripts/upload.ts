import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { MAX_SCRIPT_BYTES, UPLOAD_DIRECTORIES, type UploadDirectory } from '../../../common/scripts.ts';
import { badRequest, HttpError } from '../../http-error.ts';

/** What the file manager sent: the raw file and where and how to keep it. */
export interface ScriptUpload {
  /** As the browser named it, unchecked (the service checks it). */
  filename: string;
  bytes: Buffer;
  directory: UploadDirectory;
  isPublic: boolean;
}

/** Busboy limits for the upload route: one file of at most 1 MiB and two short fields. */
export const UPLOAD_LIMITS = {
  fileSize: MAX_SCRIPT_BYTES,
  files: 1,
  fields: 4,
  fieldSize: 64,
  fieldNameSize: 32,
  parts: 6,
  headerPairs: 16,
};

export const FILE_TOO_LARGE = 'file must be at most 1 MiB';

const UploadFieldsSchema = z.object({
  directory: z
    .enum(UPLOAD_DIRECTORIES, { error: "directory must be 'hosted-scripts' or 'project-root'" })
    .default('hosted-scripts'),
  isPublic: z
    .enum(['true', 'false'], { error: "isPublic must be 'true' or 'false'" })
    .default('true')
    .transform((v) => v === 'true'),
});
const FIELD_NAMES = new Set(['directory', 'isPublic']);

/** The multipart plugin's limit and format errors as what the admin should read (never a 500). */
function uploadProblem(error: unknown): HttpError | undefined {
  switch ((error as { code?: unknown } | null)?.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new HttpError(413, FILE_TOO_LARGE);
    case 'FST_FILES_LIMIT':
      return badRequest('only one file may be uploaded at a time');
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return badRequest('the upload has more fields than file, directory and isPublic');
    case 'FST_PROTO_VIOLATION':
      return badRequest('the upload has a field name that is not allowed');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return badRequest('the upload must be multipart/form-data');
    case 'FST_MP_PREMATURE_CLOSE':
      return badRequest('the upload ended before the file was complete');
    default:
      // busboy's own parse errors ("Unexpected end of form", malformed headers)
      if (
        error instanceof Error &&
        !(error instanceof HttpError) &&
        /multipart|form|boundary/i.test(error.message)
      ) {
        return badRequest(`the upload is not valid multipart data: ${error.message}`);
      }
      return undefined;
  }
}

/**
 * Reads every part of the upload, buffering the one file (it is at most 1 MiB), and checks the
 * fields. Throws a 4xx naming what is wrong.
 */
export async function readScriptUpload(request: FastifyRequest): Promise<ScriptUpload> {
  if (!request.isMultipart()) throw badRequest('the upload must be multipart/form-data with a file field');
  let file: { filename: string; bytes: Buffer } | undefined;
  const fields: Record<string, string> = {};
  try {
    // preservePath: see the name as sent ('../x.lua'), so it is refused rather than quietly trimmed.
    for await (const part of request.parts({
      preservePath: true,
      limits: UPLOAD_LIMITS,
    })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          await part.toBuffer();
          throw badRequest(`unexpected file field '${part.fieldname}': send the script as 'file'`);
        }
        file = { filename: part.filename, bytes: await part.toBuffer() };
        continue;
      }
      if (!FIELD_NAMES.has(part.fieldname)) throw badRequest(`unknown field '${part.fieldname}'`);
      if (part.valueTruncated || typeof part.value !== 'string')
        throw badRequest(`${part.fieldname} is invalid`);
      if (part.fieldname in fields) throw badRequest(`${part.fieldname} was sent twice`);
      fields[part.fieldname] = part.value;
    }
  } catch (error) {
    throw uploadProblem(error) ?? error;
  }
  if (!file) throw badRequest('file is required');
  const parsed = UploadFieldsSchema.safeParse(fields);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'invalid upload fields');
  return { ...file, ...parsed.data };
}
