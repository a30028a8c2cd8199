import type { Feature } from '../../feature.ts';
import { Turns } from '../../turns.ts';
import { analysisRoutes } from './analysis/analysis.routes.ts';
import { healthRoutes } from './health.routes.ts';
import { healthReportRoutes } from './report/report.routes.ts';

/** AI health: the report, the analysis (findings, recommendations) and error reports. */
export const healthFeature = {
  name: 'health',
  services: () => ({ analysisRuns: new Turns() }),
  routes: [healthRoutes, healthReportRoutes, analysisRoutes],
} satisfies Feature;
