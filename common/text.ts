import { z } from 'zod';

// ES2024's well-formedness methods (Node 20, every current browser); the project's lib is ES2023.
declare global {
  interface String {
    isWellFormed(): boolean;
    toWellFormed(): string;
  }
}

/**
 * Text the app refuses at every door (HTTP bodies, queries and params; socket frames): U+0000,
 * which PostgreSQL cannot store in a text column (it fails the whole statement, and with it every
 * other row of a batched write), and lone UTF-16 surrogates, which no encoding can store or send.
 */
export const UNSAFE_TEXT_MESSAGE = 'must not contain U+0000 or unpaired surrogates';

/** True when the string holds no U+0000 and every surrogate is paired. */
export function isSafeText(text: string): boolean {
  return text.isWellFormed() && !text.includes('\0');
}

/**
 * A zod string refusing U+0000 and lone surrogates, for schemas that parse text outside the doors
 * (stored JSON, bus messages); what arrives by HTTP or socket is refused before any schema runs.
 * Or refine an existing one: `z.string().max(50).refine(isSafeText, UNSAFE_TEXT_MESSAGE)`.
 */
export function safeString(message: string = UNSAFE_TEXT_MESSAGE) {
  return z.string().refine(isSafeText, { error: message });
}

/** A path segment naming a bad key: its unsafe characters shown as U+FFFD, never echoed back. */
function shownKey(key: string): string {
  return key.toWellFormed().replaceAll('\0', '\uFFFD');
}

interface Pending {
  value: unknown;
  segment: string | undefined;
  parent: Pending | undefined;
}

/** Longest path segment and deepest path a refusal names; what is longer is elided with '…'. */
const MAX_SEGMENT_LENGTH = 64;
const MAX_SHOWN_SEGMENTS = 16;

function pathOf(node: Pending | undefined, last?: string): string {
  const segments: string[] = last === undefined ? [] : [last];
  for (let at = node; at; at = at.parent) if (at.segment !== undefined) segments.push(at.segment);
  segments.reverse();
  const shown =
    segments.length > MAX_SHOWN_SEGMENTS
      ? [...segments.slice(0, MAX_SHOWN_SEGMENTS / 2), '…', ...segments.slice(1 - MAX_SHOWN_SEGMENTS / 2)]
      : segments;
  return shown
    .map((segment) =>
      segment.length > MAX_SEGMENT_LENGTH ? `${segment.slice(0, MAX_SEGMENT_LENGTH)}…` : segment,
    )
    .join('.');
}

/**
 * Plain data only, what JSON and query parsers make (fast-querystring's objects inherit from a
 * prototype-less object): class instances such as Buffers are not walked.
 */
function isPlainObject(value: object): value is Record<string, unknown> {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || proto === Object.prototype || Object.getPrototypeOf(proto) === null;
}

/**
 * The first place in `value` (strings, and the keys and values of plain objects and arrays, however
 * deep) holding U+0000 or a lone surrogate, as a dotted path like `events.0.payload.name` (the root
 * itself is ''), or undefined when everything is safe. Walks without recursion, so a deeply nested
 * body cannot overflow the stack.
 *
 *     findUnsafeText({ code: 'A\u0000' }) === 'code'; findUnsafeText({ ok: ['fine'] }) === undefined
 */
export function findUnsafeText(value: unknown): string | undefined {
  if (typeof value === 'string') return isSafeText(value) ? undefined : '';
  if (typeof value !== 'object' || value === null) return undefined;
  const stack: Pending[] = [{ value, segment: undefined, parent: undefined }];
  for (let node = stack.pop(); node; node = stack.pop()) {
    const current = node.value as object;
    // Nested values wait on the stack; their run is reversed below so they are read in document order.
    const mark = stack.length;
    if (Array.isArray(current)) {
      for (let i = 0; i < current.length; i++) {
        const item: unknown = current[i];
        if (typeof item === 'string') {
          if (!isSafeText(item)) return pathOf(node, String(i));
        } else if (typeof item === 'object' && item !== null) {
          stack.push({ value: item, segment: String(i), parent: node });
        }
      }
    } else if (isPlainObject(current)) {
      for (const key in current) {
        if (!Object.hasOwn(current, key)) continue;
        if (!isSafeText(key)) return pathOf(node, shownKey(key));
        const item = current[key];
        if (typeof item === 'string') {
          if (!isSafeText(item)) return pathOf(node, key);
        } else if (typeof item === 'object' && item !== null) {
          stack.push({ value: item, segment: key, parent: node });
        }
      }
    }
    for (let low = mark, high = stack.length - 1; low < high; low++, high--) {
      const swap = stack[low] as Pending;
      stack[low] = stack[high] as Pending;
      stack[high] = swap;
    }
  }
  return undefined;
}
