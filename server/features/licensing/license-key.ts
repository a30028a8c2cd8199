import { randomInt } from 'node:crypto';

/** Uppercase letters and digits without the look-alikes 0/O and 1/I, so a key read aloud or retyped survives. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const LICENSE_KEY_PREFIX = 'SCAN-';
const GROUPS = 4;
const GROUP_LENGTH = 5;

/** The shape every generated key has: SCAN- and four dash-separated groups of five. */
export const LICENSE_KEY_PATTERN = new RegExp(
  `^${LICENSE_KEY_PREFIX}[${ALPHABET}]{${GROUP_LENGTH}}(-[${ALPHABET}]{${GROUP_LENGTH}}){${GROUPS - 1}}$`,
);

/**
 * A new license key, e.g. SCAN-7KQ2M-XH4PD-93NWT-LZC8R: 20 characters from a 32-letter alphabet,
 * 100 bits from the CSPRNG, so guessing one or drawing the same one twice is out of reach.
 */
export function generateLicenseKey(): string {
  const groups: string[] = [];
  for (let g = 0; g < GROUPS; g++) {
    let group = '';
    for (let i = 0; i < GROUP_LENGTH; i++) group += ALPHABET[randomInt(ALPHABET.length)];
    groups.push(group);
  }
  return LICENSE_KEY_PREFIX + groups.join('-');
}
