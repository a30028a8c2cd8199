import { randomBytes } from 'node:crypto';

/** One part of a multipart/form-data body: a text field, or a file with its raw bytes. */
export type MultipartPart =
  | { name: string; value: string }
  | { name: string; filename: string; content: Buffer | string; contentType?: string };

/** A header parameter value, quoted, with `\` and `"` escaped the way multipart parsers read them back. */
function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/**
 * A multipart/form-data body built from raw bytes, for `app.inject({ payload, headers })`. Nothing is
 * normalised: a file's bytes (BOM, CRLF, invalid UTF-8) and name ('../x.lua') go out exactly as given.
 */
export function multipartBody(parts: MultipartPart[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----scanline-test-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition =
      'filename' in part
        ? `form-data; name=${quoted(part.name)}; filename=${quoted(part.filename)}`
        : `form-data; name=${quoted(part.name)}`;
    const type = 'filename' in part ? `\r\nContent-Type: ${part.contentType ?? 'text/plain'}` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`, 'utf8'));
    chunks.push('filename' in part ? Buffer.from(part.content) : Buffer.from(part.value, 'utf8'));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
