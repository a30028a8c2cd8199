import { z } from 'zod';
import { SalesSummarySchema } from './payments.ts';

/** GET /api/admin/dashboard/stats (also the browser's session check: 200 means signed in). */
export const DashboardStatsSchema = z.object({
  timestamp: z.string(),
  stats: z.object({
    totalKeys: z.number(),
    activeKeys: z.number(),
    expiredKeys: z.number(),
    revokedKeys: z.number(),
    totalBindings: z.number(),
    activeBindings: z.number(),
    todayUsage: z.number(),
    weeklyUsage: z.number(),
    monthlyUsage: z.number(),
  }),
  /** Paid orders (BTCPay Server): today since UTC midnight, and the last 7 UTC days as weeklyUsage counts them. */
  sales: SalesSummarySchema.extend({
    /** Payments are connected (all four BTCPay settings set): without it and without sales, the cards stay hidden. */
    connected: z.boolean(),
  }),
});
export type DashboardStats = z.infer<typeof DashboardStatsSchema>;
