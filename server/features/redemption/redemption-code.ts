import { randomInt } from 'node:crypto';
import { REDEMPTION_CODE_PREFIX } from '../../../common/redemption.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A new code, e.g. SCANLINE-7KQ2-MXH4-PD93-NWTL: 16 characters from the CSPRNG (about 82 bits). */
export function generateRedemptionCode(): string {
  const groups: string[] = [];
  for (let g = 0; g < 4; g++) {
    let group = '';
    for (let i = 0; i < 4; i++) group += ALPHABET[randomInt(ALPHABET.length)];
    groups.push(group);
  }
  return REDEMPTION_CODE_PREFIX + groups.join('-');
}
