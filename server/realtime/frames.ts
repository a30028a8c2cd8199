import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { type Frame, FrameSchema } from '../../common/realtime.ts';
import { findUnsafeText, UNSAFE_TEXT_MESSAGE } from '../../common/text.ts';

/** A server frame serialised once, so a broadcast does not stringify (or UTF-8 encode) per socket. */
export interface EncodedFrame {
  type: string;
  /** What `text` carries, kept for the outgoing check in development and tests (connection.ts). */
  payload: unknown;
  text: string;
  /** `text` as UTF-8, encoded on first use and shared by every socket it is sent to. */
  readonly bytes: Buffer;
}

/** Builds `{type, payload, id, timestamp}` with a random id and an ISO timestamp, serialised. */
export function encodeFrame(type: string, payload: unknown, now: number): EncodedFrame {
  const frame = { type, payload, id: randomUUID(), timestamp: new Date(now).toISOString() };
  const text = JSON.stringify(frame);
  let bytes: Buffer | undefined;
  return {
    type,
    payload,
    text,
    get bytes() {
      bytes ??= Buffer.from(text);
      return bytes;
    },
  };
}

export type ParsedFrame = { ok: true; frame: Frame } | { ok: false; error: string };

/**
 * Reads one incoming socket message as a frame; the error says what is wrong, for the error reply.
 * A string holding U+0000 or a lone surrogate anywhere in it is refused, naming its path.
 */
export function parseIncomingFrame(data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean): ParsedFrame {
  if (isBinary) return { ok: false, error: 'Binary frames are not supported; send JSON text' };
  const text = Array.isArray(data)
    ? Buffer.concat(data).toString('utf8')
    : Buffer.from(data as ArrayBuffer).toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: 'Invalid JSON' };
  }
  // Text is checked at the door, as HTTP requests are (plugins/text-check.ts): every string of the
  // frame, payload and keys included, before any handler or schema sees it.
  const unsafe = findUnsafeText(json);
  if (unsafe !== undefined) {
    return { ok: false, error: `Invalid frame: ${unsafe === '' ? '' : `${unsafe}: `}${UNSAFE_TEXT_MESSAGE}` };
  }
  const parsed = FrameSchema.safeParse(json);
  if (!parsed.success) return { ok: false, error: `Invalid frame: ${describeIssue(parsed.error)}` };
  return { ok: true, frame: parsed.data };
}

/** The first zod issue as `path: message`, the way HTTP 400s read. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'is invalid';
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}

/** What features publish on the bus for sockets: `{type, payload}`. */
export const BusMessageSchema = z.object({
  type: z.string().min(1).max(64),
  payload: z.unknown(),
});
export type BusMessage = z.infer<typeof BusMessageSchema>;
