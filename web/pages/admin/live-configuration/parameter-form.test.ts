import { describe, expect, it } from 'vitest';
import { DEFAULT_BOT_PARAMETERS } from '../../../../common/configuration.ts';
import { formValuesOf, ParameterFormSchema, parameterHint, parametersOf } from './parameter-form.ts';

describe('parameter form', () => {
  it('turns the typed defaults back into the parameters, reason apart', () => {
    const parsed = ParameterFormSchema.parse({ ...formValuesOf(DEFAULT_BOT_PARAMETERS), reason: 'x' });
    expect(parametersOf(parsed)).toEqual(DEFAULT_BOT_PARAMETERS);
  });

  it('takes the range ends and refuses one past them, a fraction and text', () => {
    const at = (hopFrequencyMs: string) =>
      ParameterFormSchema.safeParse({ ...formValuesOf(DEFAULT_BOT_PARAMETERS), hopFrequencyMs });
    expect(at('1000').success).toBe(true);
    expect(at('30000').success).toBe(true);
    expect(at('30001').error?.issues[0]?.message).toBe('Hop Frequency (ms) must be from 1000 to 30000');
    expect(at('2500.5').error?.issues[0]?.message).toBe(
      'Hop Frequency (ms) must be a whole number from 1000 to 30000',
    );
    expect(at('fast').success).toBe(false);
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
