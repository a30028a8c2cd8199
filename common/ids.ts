import { z } from 'zod';

/** The largest id an integer column holds; a larger one names no row (and PostgreSQL would refuse it). */
export const MAX_ID = 2_147_483_647;

/** A row id in a JSON body, refused with the field's name unless it is a positive whole number that fits. */
export function idField(field: string, typeError = `${field} must be a number`) {
  return z
    .number({ error: typeError })
    .int(`${field} must be a whole number`)
    .positive(`${field} must be positive`)
    .max(MAX_ID, `${field} must be at most ${MAX_ID}`);
}
