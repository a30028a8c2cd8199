import fc from 'fast-check';
import { z } from 'zod';

/*
 * Hostile inputs for the reliability fuzz: values that follow a schema's shape (built from the
 * zod schema's JSON Schema) but whose leaves are often hostile — U+0000, lone surrogates, very long
 * strings, huge or non-finite numbers, NaN-ish text, wrong types, deeply nested values, extra keys
 * and `__proto__`/`constructor` keys.
 */

/** JSON text sent exactly as written (numbers JSON.stringify cannot write, depth-1000 nesting). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** An object that holds `key` as an own, enumerable property, `__proto__` included. */
export function withKey(
  target: Record<string, unknown>,
  key: string,
  value: unknown,
): Record<string, unknown> {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return target;
}

/** JSON text of a generated value: RawJson as written, own keys (even `__proto__`) kept, lone surrogates escaped. */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'null';
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (typeof value === 'object') {
    const parts: string[] = [];
    for (const key of Object.keys(value)) {
      const v = (value as Record<string, unknown>)[key];
      if (v === undefined) continue;
      parts.push(`${JSON.stringify(key)}:${toJsonText(v)}`);
    }
    return `{${parts.join(',')}}`;
  }
  return 'null';
}

/** A value as a query-string or path text: strings as they are, everything else as its JSON. */
export function toText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof RawJson) return value.text;
  return toJsonText(value);
}

/**
 * Percent-encodes text for a URL, lone surrogates included (as their WTF-8 bytes, which no UTF-8
 * decoder accepts), where encodeURIComponent would throw.
 */
export function percentEncode(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const isHigh = unit >= 0xd800 && unit <= 0xdbff;
    const isLow = unit >= 0xdc00 && unit <= 0xdfff;
    if (isHigh && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += encodeURIComponent(text.slice(i, i + 2));
        i++;
        continue;
      }
    }
    if (isHigh || isLow) {
      const bytes = [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)];
      out += bytes.map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
      continue;
    }
    out += encodeURIComponent(text[i] as string);
  }
  return out;
}

/** A query string from an object: arrays repeat the key, other values are written as text. */
export function toQueryString(query: unknown): string {
  if (query === undefined) return '';
  if (query === null || typeof query !== 'object' || Array.isArray(query) || query instanceof RawJson) {
    // Not an object: sent as a bare query (`?<text>`), which parsers read as one key.
    return `?${percentEncode(toText(query))}`;
  }
  const parts: string[] = [];
  for (const key of Object.keys(query)) {
    const value = (query as Record<string, unknown>)[key];
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      parts.push(`${percentEncode(key)}=${percentEncode(toText(item))}`);
    }
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Does this value hold U+0000 or a lone surrogate anywhere (keys included)? */
export function holdsForbiddenText(value: unknown, depth = 0): boolean {
  if (depth > 50) return false;
  if (typeof value === 'string') return value.includes('\u0000') || LONE_SURROGATE.test(value);
  if (value instanceof RawJson) return false;
  if (Array.isArray(value)) return value.some((v) => holdsForbiddenText(v, depth + 1));
  if (value && typeof value === 'object') {
    return Object.keys(value).some(
      (k) =>
        holdsForbiddenText(k, depth + 1) ||
        holdsForbiddenText((value as Record<string, unknown>)[k], depth + 1),
    );
  }
  return false;
}

/* ---------- leaves ---------- */

const DEPTH = 1000;
export const DEEP_ARRAY = new RawJson(`${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`);
export const DEEP_OBJECT = new RawJson(`${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`);

/** Characters a text field must refuse (U+0000, lone surrogates) or may find surprising. */
const BAD_CHARS = ['\u0000', '\ud800', '\udfff', '\udbff', '\u0000\ud800'];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      '\u0000',
      'a\u0000',
      '\u0000a',
      '\ud800',
      'a\ud800b',
      '\udfff',
      'x\udc00',
      '\ud800\u0000',
      '',
      ' ',
      'NaN',
      'Infinity',
      '-Infinity',
      '-0',
      '1e309',
      '0x1F',
      '99999999999999999999999999999999',
      '-1',
      '1.5',
      '__proto__',
      'constructor',
      'prototype',
      '../../../etc/passwd',
      '..\\..\\boot.ini',
      '%00',
      '%ZZ',
      '<script>alert(1)</script>',
      "' OR '1'='1' --",
      '\u202egnp.exe',
      '\ufeff',
      '\uffff',
      '😀',
      'null',
      'true',
      '{}',
      '[]',
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 300_000 }).map((n) => 'x'.repeat(n)) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
);

export const hostileNumber: fc.Arbitrary<unknown> = fc.constantFrom<unknown>(
  new RawJson('1e400'),
  new RawJson('-1e400'),
  new RawJson('-0'),
  new RawJson('123456789012345678901234567890'),
  1e308,
  -1e308,
  2 ** 53 + 2,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 63,
  0.5,
  -1,
  1e-320,
);

/** A wrong-typed or pathological value for any place. */
export const hostileAny: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  {
    weight: 3,
    arbitrary: fc.constantFrom<unknown>(
      null,
      true,
      false,
      [],
      {},
      DEEP_ARRAY,
      DEEP_OBJECT,
      [null],
      ['\u0000'],
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('__proto__', 'constructor')
      .map((k) => withKey({}, k, k === 'constructor' ? { prototype: { polluted: 1 } } : { polluted: 1 })),
  },
);

/* ---------- JSON Schema -> arbitrary ---------- */

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema | JsonSchema[];
  prefixItems?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
};

/** The JSON Schema of a zod schema as a caller sends it (input side), or {} when it cannot be written. */
export function jsonSchemaOf(schema: unknown): JsonSchema {
  if (!schema || typeof schema !== 'object') return {};
  if (!(schema instanceof z.ZodType)) return schema as JsonSchema; // already JSON Schema
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch {
    return {};
  }
}

/** Real values of the app under test (a script key, a code, a bot id), so valid leaves reach deeper. */
export const KNOWN_VALUES: string[] = ['1', 'scanline-free.lua', 'bot-1', 'ok', 'FREE', 'PREMIUM'];

const EXTRA_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'extra', ''];

function validString(s: JsonSchema): fc.Arbitrary<string> {
  if (s.pattern) {
    try {
      const min = s.minLength ?? 0;
      const max = s.maxLength ?? Infinity;
      const pattern = new RegExp(s.pattern);
      const matching = fc
        .stringMatching(pattern, { maxLength: Math.min(max, 40) })
        .map((v) => (v.length >= min && v.length <= max ? v : v.padEnd(min, 'a').slice(0, max)));
      const known = KNOWN_VALUES.filter((v) => pattern.test(v) && v.length >= min && v.length <= max);
      return known.length ? fc.oneof(matching, fc.constantFrom(...known)) : matching;
    } catch {
      // a pattern fast-check cannot walk: plain text below
    }
  }
  const min = s.minLength ?? 0;
  const max = Math.max(min, Math.min(s.maxLength ?? 24, 64));
  const known = KNOWN_VALUES.filter((v) => v.length >= min && v.length <= (s.maxLength ?? Infinity));
  const text = fc.string({ minLength: min, maxLength: max });
  return known.length ? fc.oneof(text, fc.constantFrom(...known)) : text;
}

function validNumber(s: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const lo = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -1000);
  const hi = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : 100_000);
  const min = Math.max(Math.min(lo, hi), -1e9);
  const max = Math.min(Math.max(lo, hi), 1e9);
  return integer
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

/**
 * Values shaped like the schema with hostile leaves: a valid value (strings from the schema's
 * pattern, numbers in range, required keys present), then usually one or two places in it made
 * hostile — a string spoiled with U+0000 or a lone surrogate, a wrong type, a huge number, an
 * extra or `__proto__` key, a key removed — so each call tests one bad thing past the valid rest.
 */
export function arbitraryFor(schema: JsonSchema): fc.Arbitrary<unknown> {
  const valid = validFor(schema, 0);
  return fc.oneof(
    { weight: 3, arbitrary: valid },
    { weight: 6, arbitrary: valid.chain(mutateOnce) },
    { weight: 1, arbitrary: valid.chain(mutateOnce).chain(mutateOnce) },
    { weight: 1, arbitrary: hostileAny },
  );
}

/** A valid value of the schema (as far as JSON Schema says: refinements are not known here). */
export function validFor(s: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  if (depth > 8) return fc.constant(null);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((a) => validFor(a, depth + 1)));
  if (s.allOf?.length) return validFor(s.allOf[0] as JsonSchema, depth + 1);
  const type = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (type.length > 1) return fc.oneof(...type.map((t) => validFor({ ...s, type: t }, depth)));
  switch (type[0]) {
    case 'string':
      return validString(s);
    case 'integer':
    case 'number':
      return validNumber(s, type[0] === 'integer');
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const item = Array.isArray(s.items) ? (s.items[0] ?? {}) : (s.items ?? s.prefixItems?.[0] ?? {});
      const minLength = Math.min(s.minItems ?? 0, 3);
      return fc.array(validFor(item, depth + 1), {
        minLength,
        maxLength: Math.max(minLength, Math.min(s.maxItems ?? 3, 3)),
      });
    }
    case 'object': {
      const properties = s.properties ?? {};
      const required = new Set(s.required ?? []);
      const fields = Object.entries(properties).map(([key, sub]) =>
        fc.tuple(
          fc.constant(key),
          validFor(sub, depth + 1),
          required.has(key) ? fc.constant(true) : fc.boolean(),
        ),
      );
      return fc.tuple(...fields).map((chosen) => {
        const out: Record<string, unknown> = {};
        for (const [key, value, present] of chosen as Array<[string, unknown, boolean]>)
          if (present) withKey(out, key, value);
        return out;
      });
    }
    default:
      return fc.oneof(fc.constant({}), fc.jsonValue({ maxDepth: 2 }));
  }
}

type Place = { path: Array<string | number>; value: unknown };

function placesOf(value: unknown, path: Array<string | number> = [], out: Place[] = []): Place[] {
  out.push({ path, value });
  if (path.length > 8 || value instanceof RawJson) return out;
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) placesOf(v, [...path, i], out);
  } else if (value && typeof value === 'object')
    for (const k of Object.keys(value)) placesOf((value as Record<string, unknown>)[k], [...path, k], out);
  return out;
}

function cloneValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneValue);
  if (value && typeof value === 'object' && !(value instanceof RawJson)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value)) withKey(out, k, cloneValue((value as Record<string, unknown>)[k]));
    return out;
  }
  return value;
}

function replaceAt(root: unknown, path: Array<string | number>, make: (old: unknown) => unknown): unknown {
  if (path.length === 0) return make(root);
  const copy = cloneValue(root);
  let parent = copy as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  const next = make(parent[last]);
  if (next === REMOVE) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else if (Array.isArray(parent)) parent[last as number] = next;
  else withKey(parent as Record<string, unknown>, String(last), next);
  return copy;
}

const REMOVE = Symbol('remove');

/** Makes one place of a value hostile. */
function mutateOnce(value: unknown): fc.Arbitrary<unknown> {
  const places = placesOf(value);
  return fc
    .tuple(
      fc.nat({ max: places.length - 1 }),
      fc.nat({ max: 9 }),
      hostileAny,
      hostileString,
      fc.constantFrom(...BAD_CHARS),
      fc.nat(),
      fc.constantFrom(...EXTRA_KEYS),
    )
    .map(([index, action, anyValue, badText, badChar, at, extraKey]) => {
      const place = places[index] as Place;
      const old = place.value;
      if (typeof old === 'string') {
        const i = at % (old.length + 1);
        const spoiled = old.slice(0, i) + badChar + old.slice(i);
        return replaceAt(value, place.path, () =>
          action < 5 ? spoiled : action < 7 ? badText : action < 8 && place.path.length ? REMOVE : anyValue,
        );
      }
      if (old && typeof old === 'object' && !Array.isArray(old) && !(old instanceof RawJson)) {
        // an extra key (a pollution key often), or anything in its place
        if (action < 5)
          return replaceAt(value, place.path, (o) =>
            withKey(cloneValue(o) as Record<string, unknown>, action < 3 ? extraKey : badText, anyValue),
          );
        if (action < 7 && place.path.length) return replaceAt(value, place.path, () => REMOVE);
        return replaceAt(value, place.path, () => anyValue);
      }
      if (Array.isArray(old) && action < 4)
        return replaceAt(value, place.path, (o) => [...(o as unknown[]), anyValue]);
      if (typeof old === 'number' && action < 6) {
        return replaceAt(
          value,
          place.path,
          () => [new RawJson('1e400'), new RawJson('-0'), 1e308, 2 ** 53 + 2, -1, 0.5][action],
        );
      }
      if (action < 2 && place.path.length) return replaceAt(value, place.path, () => REMOVE);
      return replaceAt(value, place.path, () => anyValue);
    });
}

let checkSurrogates = true;
const isForbidden = (s: string) => s.includes('\u0000') || (checkSurrogates && LONE_SURROGATE.test(s));

/**
 * forbiddenInDeclared for a URL's query or path: a lone surrogate cannot travel in a URL (it goes as
 * bytes no UTF-8 decoder reads), so only U+0000 counts there.
 */
export function nulInDeclared(value: unknown, schema: JsonSchema): boolean {
  checkSurrogates = false;
  try {
    return forbiddenInDeclared(value, schema);
  } finally {
    checkSurrogates = true;
  }
}

/**
 * Whether U+0000 or a lone surrogate sits in a string the schema declares (not in an extra key
 * the schema ignores, nor under an `unknown`): such a value must be refused at the door.
 */
export function forbiddenInDeclared(value: unknown, schema: JsonSchema, depth = 0): boolean {
  if (depth > 20 || value === undefined || value === null) return false;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const type = (value as Record<string, unknown>).type;
      const match = alternatives.find((a) => a.properties?.type?.const === type);
      if (match) return forbiddenInDeclared(value, match, depth + 1);
    }
    return alternatives.some((a) => forbiddenInDeclared(value, a, depth + 1));
  }
  if (schema.allOf?.[0]) return forbiddenInDeclared(value, schema.allOf[0], depth + 1);
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (typeof value === 'string')
    return (types.includes('string') || schema.enum !== undefined) && isForbidden(value);
  if (Array.isArray(value) && types.includes('array')) {
    const item = Array.isArray(schema.items) ? schema.items[0] : schema.items;
    return item ? value.some((v) => forbiddenInDeclared(v, item, depth + 1)) : false;
  }
  if (typeof value === 'object' && types.includes('object') && !(value instanceof RawJson)) {
    return Object.entries(schema.properties ?? {}).some(
      ([key, sub]) =>
        Object.hasOwn(value, key) &&
        forbiddenInDeclared((value as Record<string, unknown>)[key], sub, depth + 1),
    );
  }
  return false;
}
