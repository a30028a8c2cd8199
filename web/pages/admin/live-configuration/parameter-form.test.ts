import { describe, expect, it } from 'vitest';
import { DEFAULT_BOT_PARAMETERS } from '../../../../common/configuration.ts';
import {
  draftOf,
  formValuesOf,
  MIXED,
  parameterChangesSchema,
  parameterHint,
  selectionValuesOf,
} from './parameter-form.ts';

const STEALTHY = { ...DEFAULT_BOT_PARAMETERS, hopFrequencyMs: 15_000, stealthMode: true };

describe('parameter form', () => {
  it("starts from the selected bots' values, MIXED where they differ, the defaults with none", () => {
    expect(selectionValuesOf([STEALTHY])).toEqual(STEALTHY);
    expect(selectionValuesOf([])).toEqual(DEFAULT_BOT_PARAMETERS);
    const both = selectionValuesOf([STEALTHY, DEFAULT_BOT_PARAMETERS]);
    expect(both).toMatchObject({ hopFrequencyMs: MIXED, stealthMode: MIXED, batchSize: 50 });
    expect(draftOf(both)).toMatchObject({ hopFrequencyMs: '', stealthMode: MIXED, batchSize: '50' });
  });

  it('sends only the fields changed from where the form started, and leaves mixed ones alone', () => {
    const selection = [STEALTHY, DEFAULT_BOT_PARAMETERS];
    const start = draftOf(selectionValuesOf(selection));
    const schema = parameterChangesSchema(start, selection);
    expect(schema.parse({ ...start, reason: '' })).toEqual({ updates: {}, reason: '' });
    expect(schema.parse({ ...start, batchSize: ' 80 ', stealthMode: false, reason: ' why ' })).toEqual({
      updates: { batchSize: 80, stealthMode: false },
      reason: 'why',
    });
    // A typed value equal to the start is no change.
    expect(schema.parse({ ...start, batchSize: '050', reason: '' }).updates).toEqual({});
  });

  it('checks a changed field against its range, and the pet values on each bot as they would become', () => {
    const start = draftOf(DEFAULT_BOT_PARAMETERS);
    const schema = parameterChangesSchema(start, [DEFAULT_BOT_PARAMETERS]);
    const at = (hopFrequencyMs: string) =>
      schema.safeParse({ ...formValuesOf(DEFAULT_BOT_PARAMETERS), hopFrequencyMs });
    expect(at('1000').success).toBe(true);
    expect(at('30000').success).toBe(true);
    expect(at('30001').error?.issues[0]?.message).toBe('Hop Frequency (ms) must be from 1000 to 30000');
    expect(at('2500.5').error?.issues[0]?.message).toBe(
      'Hop Frequency (ms) must be a whole number from 1000 to 30000',
    );
    expect(at('fast').success).toBe(false);
    const capped = { ...DEFAULT_BOT_PARAMETERS, maxPetValue: 2_000_000 };
    const pair = [DEFAULT_BOT_PARAMETERS, capped];
    const pairStart = draftOf(selectionValuesOf(pair));
    const raise = parameterChangesSchema(pairStart, pair).safeParse({
      ...pairStart,
      minPetValue: '3000000',
      reason: '',
    });
    expect(raise.error?.issues[0]).toMatchObject({
      path: ['minPetValue'],
      message: 'maxPetValue must be 0 (unlimited) or at least minPetValue',
    });
  });

  it('hints the range and step, and what a pet value reads as', () => {
    expect(parameterHint('hopCooldownMs', '30000')).toBe('5000–300000, step 5000');
    expect(parameterHint('rateLimit', '100')).toBe('10–1000');
    expect(parameterHint('minPetValue', '1500000')).toBe('$1.5M/s');
    expect(parameterHint('maxPetValue', '0')).toBe('0 = unlimited');
    expect(parameterHint('maxPetValue', '20000000')).toBe('$20M/s (0 = unlimited)');
    expect(parameterHint('targetPetValue', 'abc')).toBe('A whole number');
  });
});
