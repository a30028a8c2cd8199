/*
 * What the simulated bots find: pet names and rarities as the game shows them, and a long-tailed
 * value distribution (a Pareto tail: about 90% of finds under $1M/s, about 3% at $10M/s and up),
 * so every tier of the feed and every value badge of the dashboards gets exercised.
 */

/** A source of uniform numbers in [0, 1); seeded in tests so the distribution checks are stable. */
export type Random = () => number;

/** mulberry32: a tiny seeded generator, good enough to simulate with and reproducible in tests. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The smallest value a reported find has, in $/s. */
export const MIN_PET_VALUE = 10_000;
/** Pareto shape: P(value > x) = (MIN_PET_VALUE / x) ** PARETO_ALPHA, so 10% exceed $1M/s, 3% $10M/s. */
export const PARETO_ALPHA = 0.5;
/** Nothing in the game earns more than this; the tail is cut here. */
export const MAX_PET_VALUE = 5_000_000_000;

/** A value in $/s drawn from the long tail. */
export function drawPetValue(random: Random): number {
  // 1 - random() is in (0, 1], so the division never reaches infinity.
  const value = MIN_PET_VALUE / (1 - random()) ** (1 / PARETO_ALPHA);
  return Math.min(Math.round(value), MAX_PET_VALUE);
}

const SUFFIXES: Array<[number, string]> = [
  [1e12, 'T'],
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'K'],
];

/** A value as the game prints it: '$1.2M/s', '$850K/s', '$12/s' (one decimal at most). */
export function formatPetValue(value: number): string {
  for (const [index, [size, suffix]] of SUFFIXES.entries()) {
    if (value >= size) {
      const scaled = Math.round((value / size) * 10) / 10;
      // 999.96K rounds to 1000K: the next suffix up says it better (1M).
      const bigger = SUFFIXES[index - 1];
      if (scaled >= 1000 && bigger) return `$1${bigger[1]}/s`;
      return `$${trimZero(scaled)}${suffix}/s`;
    }
  }
  const whole = Math.round(value);
  return whole >= 1000 ? '$1K/s' : `$${whole}/s`;
}

function trimZero(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

/** Rarity by value: what the game would call a pet earning that much. */
export function rarityOf(value: number): string {
  if (value >= 50_000_000) return 'Secret';
  if (value >= 10_000_000) return 'Brainrot God';
  if (value >= 1_000_000) return 'Mythic';
  if (value >= 250_000) return 'Legendary';
  if (value >= 50_000) return 'Epic';
  if (value >= 20_000) return 'Rare';
  return 'Common';
}

/** Names by rarity, as players see them; a find picks one of its rarity. */
const NAMES: Record<string, readonly string[]> = {
  Common: ['Noobini Pizzanini', 'Lirili Larila', 'Tim Cheese', 'Fluriflura', 'Talpa Di Fero'],
  Rare: ['Trippi Troppi', 'Tung Tung Tung Sahur', 'Gangster Footera', 'Boneca Ambalabu', 'Ta Ta Ta Ta Sahur'],
  Epic: [
    'Cappuccino Assassino',
    'Brr Brr Patapim',
    'Trulimero Trulicina',
    'Bambini Crostini',
    'Bananita Dolphinita',
  ],
  Legendary: [
    'Burbaloni Loliloli',
    'Chimpanzini Bananini',
    'Ballerina Cappuccina',
    'Chef Crabracadabra',
    'Glorbo Fruttodrillo',
  ],
  Mythic: [
    'Frigo Camelo',
    'Orangutini Ananassini',
    'Bombardiro Crocodilo',
    'Bombombini Gusini',
    'Rhino Toasterino',
  ],
  'Brainrot God': [
    'Cocofanto Elefanto',
    'Girafa Celestre',
    'Tralalero Tralala',
    'Odin Din Din Dun',
    'Trenostruzzo Turbo 3000',
  ],
  Secret: [
    'La Vacca Saturno Saturnita',
    'Los Tralaleritos',
    'Graipuss Medussi',
    'La Grande Combinasion',
    'Garama and Madundung',
  ],
};

/** Mutations the game applies to a pet; shown as a prefix. Most finds have none. */
const MUTATIONS = ['Gold', 'Diamond', 'Rainbow', 'Lava', 'Candy'] as const;

export interface SimulatedPet {
  name: string;
  type: string;
  /** The value text as a bot reports it ('$1.2M/s'). */
  value: string;
  numericValue: number;
  count: number;
}

function pick<T>(items: readonly T[], random: Random): T {
  return items[Math.floor(random() * items.length)] as T;
}

/** One find: a value from the long tail, a name and rarity that fit it, now and then a mutation or a pair. */
export function drawPet(random: Random): SimulatedPet {
  const numericValue = drawPetValue(random);
  const type = rarityOf(numericValue);
  const base = pick(NAMES[type] ?? NAMES.Common!, random);
  const name = random() < 0.15 ? `${pick(MUTATIONS, random)} ${base}` : base;
  const count = random() < 0.1 ? 2 : 1;
  return { name, type, value: formatPetValue(numericValue), numericValue, count };
}
