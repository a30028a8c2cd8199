import { describe, expect, it } from 'vitest';
import { LoaderQuerySchema, parseLoaderQuery } from './script-params.ts';

const SIG = 'a'.repeat(64);

describe("the loader's query", () => {
  it('comes out of the hand-checked path exactly as the schema returns it, refusals included', () => {
    const queries: unknown[] = [
      { script: 'premium.lua' },
      { script: 'premium.lua', key: 'SK-1', hwid: 'device-1' },
      { script: 'Premium.LUA', key: 'SK-1', hwid: 'd', nonce: 'n', sig: SIG, extra: 'ignored' },
      { script: 'premium.lua', key: '' },
      { script: 'premium.lua', key: 'k'.repeat(201) },
      { script: 'premium.lua', hwid: 'h'.repeat(200) },
      { script: 'premium.lua', nonce: 'n'.repeat(101) },
      { script: 'premium.lua', sig: 'xyz' },
      { script: 'premium.lua', key: ['a', 'b'] },
      { script: ['a.lua', 'b.lua'] },
      { script: '../premium.lua' },
      { script: 'premium.txt' },
      { script: ' premium.lua' },
      { key: 'SK-1' },
      {},
      undefined,
    ];
    for (const query of queries) {
      const fast = parseLoaderQuery(query);
      const schema = LoaderQuerySchema.safeParse(query);
      expect(fast.success, JSON.stringify(query)).toBe(schema.success);
      if (schema.success) expect(fast.data, JSON.stringify(query)).toStrictEqual(schema.data);
      else expect(fast.error?.issues, JSON.stringify(query)).toEqual(schema.error.issues);
    }
  });
});
