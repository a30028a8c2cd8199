import { z } from 'zod';

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
});
export type DashboardStats = z.infer<typeof DashboardStatsSchema>;
