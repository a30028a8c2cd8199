import { describe, expect, it } from 'vitest';
import { findUnsafeText, isSafeText, safeString, UNSAFE_TEXT_MESSAGE } from './text.ts';

describe('isSafeText', () => {
  it('refuses U+0000 and lone surrogates, and takes paired ones', () => {
    expect(isSafeText('plain ✓')).toBe(true);
    expect(isSafeText('pet 🐉')).toBe(true);
    expect(isSafeText('a\u0000b')).toBe(false);
    expect(isSafeText('\ud800')).toBe(false);
    expect(isSafeText('x\udc00y')).toBe(false);
    expect(isSafeText('🐉'.slice(0, 1))).toBe(false);
  });
});

describe('findUnsafeText', () => {
  it('names the first bad place by its dotted path, keys included', () => {
    expect(findUnsafeText({ code: 'A\u0000' })).toBe('code');
    expect(findUnsafeText('\ud800')).toBe('');
    expect(
      findUnsafeText({ events: [{ payload: { name: 'ok' } }, { payload: { name: 'Dog\u0000' } }] }),
    ).toBe('events.1.payload.name');
    expect(findUnsafeText({ a: { 'b\u0000c': 1 } })).toBe('a.b\uFFFDc');
    expect(findUnsafeText({ first: { x: '\u0000' }, second: '\u0000' })).toBe('second');
    expect(findUnsafeText({ first: { x: '\u0000' }, second: { y: '\u0000' } })).toBe('first.x');
  });

  it('passes safe data, numbers, null and class instances such as Buffers', () => {
    expect(findUnsafeText({ a: [1, null, true, 'ok', { b: 'fine' }] })).toBeUndefined();
    expect(findUnsafeText(Buffer.from([0, 0xd8, 0]))).toBeUndefined();
    expect(findUnsafeText(undefined)).toBeUndefined();
    const queryLike = Object.create(Object.create(null)) as Record<string, string>;
    queryLike.key = '\u0000';
    expect(findUnsafeText(queryLike)).toBe('key');
  });

  it('walks nesting deeper than the call stack', () => {
    let deep: unknown = 'bad\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    // The path a refusal names stays short: its middle is elided.
    expect(findUnsafeText(deep)).toBe('0.0.0.0.0.0.0.0.….0.0.0.0.0.0.0');
    expect(findUnsafeText({ ['k'.repeat(1000)]: 'bad\u0000' })).toBe(`${'k'.repeat(64)}…`);
  });
});

describe('safeString', () => {
  it('is a zod string refusing unsafe text with the shared message', () => {
    expect(safeString().safeParse('ok').success).toBe(true);
    const refused = safeString().safeParse('a\u0000');
    expect(refused.success ? undefined : refused.error.issues[0]?.message).toBe(UNSAFE_TEXT_MESSAGE);
  });
});
