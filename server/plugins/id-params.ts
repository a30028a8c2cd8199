import { z } from 'zod';

const MAX_ID = 2_147_483_647;

/** `:id` as a positive whole number that fits an integer column (a larger one would be a 500 on PostgreSQL). */
export const IdParamsSchema = z.object({
  id: z
    .string()
    .regex(/^[1-9][0-9]{0,9}$/, 'id must be a positive whole number')
    .transform(Number)
    .refine((id) => id <= MAX_ID, 'id must be a positive whole number'),
});
