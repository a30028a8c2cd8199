export interface DashboardStats {
  timestamp: string;
  stats: {
    totalKeys: number;
    activeKeys: number;
    expiredKeys: number;
    revokedKeys: number;
    totalBindings: number;
    activeBindings: number;
    todayUsage: number;
    weeklyUsage: number;
    monthlyUsage: number;
  };
}
