import { describe, expect, it } from 'vitest';
import { parsePetValue } from '../common/pet-value.ts';
import { drawPet, drawPetValue, formatPetValue, MIN_PET_VALUE, rarityOf, seededRandom } from './pets.ts';

describe('simulated pet values', () => {
  const random = seededRandom(42);
  const values = Array.from({ length: 20_000 }, () => drawPetValue(random));
  const share = (test: (v: number) => boolean) => values.filter(test).length / values.length;

  it('are long-tailed: most finds under $1M/s, a few at $10M/s and up', () => {
    expect(share((v) => v < 1_000_000)).toBeGreaterThan(0.85);
    expect(share((v) => v >= 10_000_000)).toBeGreaterThan(0.01);
    expect(share((v) => v >= 10_000_000)).toBeLessThan(0.06);
    // Both feed thresholds (join data at 5M, hidden from FREE at 10M) are crossed in a normal run.
    expect(values.some((v) => v >= 50_000_000)).toBe(true);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(MIN_PET_VALUE);
  });

  it('are printed as the game prints them, and read back by the server parser', () => {
    expect(formatPetValue(1_200_000)).toBe('$1.2M/s');
    expect(formatPetValue(850_000)).toBe('$850K/s');
    expect(formatPetValue(10_000)).toBe('$10K/s');
    expect(formatPetValue(2_500_000_000)).toBe('$2.5B/s');
    expect(formatPetValue(999_960)).toBe('$1M/s');
    expect(formatPetValue(420)).toBe('$420/s');
    for (const value of values.slice(0, 2_000)) {
      const parsed = parsePetValue(formatPetValue(value));
      expect(Math.abs(parsed - value) / value).toBeLessThan(0.06);
    }
  });

  it('name a pet of the rarity its value earns', () => {
    const pets = Array.from({ length: 500 }, () => drawPet(seededRandom(7)));
    for (const pet of pets) {
      expect(pet.type).toBe(rarityOf(pet.numericValue));
      expect(pet.name.length).toBeGreaterThan(0);
      expect(pet.value).toMatch(/^\$\d+(\.\d)?[KMBT]?\/s$/);
    }
    expect(rarityOf(60_000_000)).toBe('Secret');
    expect(rarityOf(12_000_000)).toBe('Brainrot God');
    expect(rarityOf(15_000)).toBe('Common');
  });
});
