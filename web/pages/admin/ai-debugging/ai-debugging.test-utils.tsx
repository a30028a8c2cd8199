import { type FetchHandler, json, mockFetch } from '@/test/render.tsx';
import type { AnalysisResult, HealthReport, Recommendation } from '../../../../common/ai-health.ts';
import { renderAt } from '../shared/test-utils.tsx';
import { healthReport } from './ai-debugging.fixtures.ts';
import AiDebuggingPage from './ai-debugging.tsx';

// The screens' shared helpers (GET counts, toasts, a clean slate per test).
export { expectToast, getsOf, resetBetweenTests } from '../shared/test-utils.tsx';

/** What the fake server holds; Resolve and Implement change it, as the real one would. */
export interface FakeHealthState {
  /** Undefined: the fixture's healthy report; null: no report yet. */
  report?: HealthReport | null;
  findings?: AnalysisResult[];
  recommendations?: Recommendation[];
}

export const HEALTH_URL = '/api/admin/system-health';
export const GENERATE_URL = '/api/admin/system-health/generate';
export const ANALYSIS_URL = '/api/admin/ai-analysis';
export const RECOMMENDATIONS_URL = '/api/admin/ai-recommendations';

/**
 * Renders /admin/ai-debugging against a fake server answering from `state`: each finding's Resolve
 * and each recommendation's Implement succeed and change `state`; `handlers` replace or add calls
 * ("POST /path", or a path for a GET). Returns the render result, the fetch mock and the POSTed paths.
 */
export function renderAiDebugging(state: FakeHealthState = {}, handlers: Record<string, FetchHandler> = {}) {
  const posts: string[] = [];
  const settle = <T extends { id: string }>(list: T[] | undefined, id: string, patch: Partial<T>) =>
    list?.map((item) => (item.id === id ? { ...item, ...patch } : item));
  const rowCalls: Record<string, FetchHandler> = {};
  for (const { id } of state.findings ?? []) {
    rowCalls[`POST ${ANALYSIS_URL}/resolve/${id}`] = () => {
      state.findings = settle(state.findings, id, { isResolved: 1 });
      return json({ success: true });
    };
  }
  for (const { id } of state.recommendations ?? []) {
    rowCalls[`POST ${RECOMMENDATIONS_URL}/implement/${id}`] = () => {
      state.recommendations = settle(state.recommendations, id, { isImplemented: 1 });
      return json({ success: true });
    };
  }
  const all: Record<string, FetchHandler> = {
    [HEALTH_URL]: () => json({ healthReport: state.report === undefined ? healthReport() : state.report }),
    [ANALYSIS_URL]: () => json({ analysisResults: state.findings ?? [] }),
    [RECOMMENDATIONS_URL]: () => json({ recommendations: state.recommendations ?? [] }),
    ...rowCalls,
    ...handlers,
  };
  const fetchMock = mockFetch(
    Object.fromEntries(
      Object.entries(all).map(([key, handler]) => [
        key,
        ((init, url) => {
          if (key.startsWith('POST ')) posts.push(url.pathname);
          return handler(init, url);
        }) satisfies FetchHandler,
      ]),
    ),
  );
  const result = renderAt(<AiDebuggingPage />, '/admin/ai-debugging');
  return { ...result, fetchMock, posts };
}
