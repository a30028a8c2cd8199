import { z } from 'zod';
import { MAX_ID } from '../../common/ids.ts';

/** `:id` as a positive whole number that fits an integer column (a larger one would be a 500 on PostgreSQL). */
export const IdParamsSchema = z.object({
  id: z
    .string()
    .regex(/^[1-9][0-9]{0,9}$/, 'id must be a positive whole number')
    .transform(Number)
    .refine((id) => id <= MAX_ID, 'id must be a positive whole number'),
});
