import { describe, expect, it } from 'vitest';
import { freeTierShare, parsePetValue, readPetValue } from './pet-value.ts';

describe('parsePetValue (spec section 5)', () => {
  it.each([
    ['$500', 500],
    ['$1,250,000', 1_250_000],
    ['$ 1 250', 1250],
    ['$750K', 750_000],
    ['$1.5M', 1_500_000],
    ['$2B', 2_000_000_000],
    ['$3T', 3_000_000_000_000],
    ['$12.5m', 12_500_000],
    ['12.5M', 12_500_000],
    ['$12.5M/s', 12_500_000],
    ['$1,200K/s', 1_200_000],
    ['$0', 0],
    ['', 0],
    ['   ', 0],
    ['$', 0],
    ['priceless', 0],
    ['$1.2.3M', 0],
    ['$M', 0],
  ])('%j is %d', (text, value) => {
    expect(parsePetValue(text)).toBe(value);
  });

  it('treats a missing value as $0', () => {
    expect(parsePetValue(null)).toBe(0);
    expect(parsePetValue(undefined)).toBe(0);
  });
});

describe('readPetValue', () => {
  it('tells a value that does not parse from $0', () => {
    expect(readPetValue('$0')).toBe(0);
    expect(readPetValue('')).toBe(0);
    expect(readPetValue(null)).toBe(0);
    expect(readPetValue('$12.5M/s')).toBe(12_500_000);
    for (const text of ['$3Qa/s', 'priceless', '$1.2.3M', '$M', '$', '$1e400'])
      expect(readPetValue(text)).toBeNull();
  });
});

describe('freeTierShare (the feed fails closed)', () => {
  it.each([
    ['$850K/s', 'all'],
    ['$4.99M/s', 'all'],
    ['$5M/s', 'withoutJoinData'],
    ['$9.9M/s', 'withoutJoinData'],
    ['$10M/s', 'none'],
    ['$3Qa/s', 'none'],
    ['priceless', 'none'],
  ] as const)('%j: %s', (text, share) => {
    expect(freeTierShare(text)).toBe(share);
  });
});
