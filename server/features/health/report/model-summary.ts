import type { AnalysisResult, HealthReport, ReportSummary } from '../../../../common/ai-health.ts';
import { fleetHeadline } from '../../../../common/fleet-condition.ts';
import type { Config } from '../../../config.ts';
import { clockTime } from '../analysis/detectors/detector.ts';

/** Longest summary kept: the prompt asks for a paragraph; a model that rambles is cut here. */
export const MAX_SUMMARY_CHARS = 2000;
/** Findings put in the prompt at most (the most severe first, as the caller orders them). */
export const MAX_PROMPT_FINDINGS = 20;

export const DISABLED_SUMMARY: ReportSummary = { status: 'disabled', text: null, model: null, error: null };

const SYSTEM_PROMPT =
  'You are the operations assistant of Scanline, a licensing and fleet-monitoring server for about 70 ' +
  'scanner bots. Given a measured health report and the open findings of its anomaly detectors, write ' +
  'a short summary for the administrator: the overall state in one sentence, then the two or three ' +
  'things most worth acting on and why. When the fleet is not live (down, degraded or stopped), say so ' +
  'first, with its headline. Plain text, at most 120 words. Use only the figures given.';

/** The fleet's state and headline as of the report ('No bot has reported for 2 min — last heard …'), if measured. */
function fleetOf(report: Omit<HealthReport, 'summary'>) {
  const c = report.fleetHealth.condition;
  if (!c) return null;
  const at = Date.parse(report.generatedAt);
  return { state: c.state, headline: fleetHeadline(c, at, (iso) => clockTime(Date.parse(iso))) };
}

/** The user message: the report's measured figures and the open findings, as compact JSON. */
export function buildPrompt(report: Omit<HealthReport, 'summary'>, findings: AnalysisResult[]): string {
  const figures = {
    healthScore: report.healthScore,
    systemStatus: report.systemStatus,
    fleet: fleetOf(report),
    generatedAt: report.generatedAt,
    databaseHealth: report.databaseHealth,
    performanceHealth: report.performanceHealth,
    securityHealth: report.securityHealth,
    fleetHealth: report.fleetHealth,
    components: report.components,
  };
  const open = findings.slice(0, MAX_PROMPT_FINDINGS).map((f) => ({
    severity: f.severity,
    type: f.analysisType,
    title: f.title,
    description: f.description,
    frequency: f.frequency,
  }));
  return `Health report:\n${JSON.stringify(figures)}\n\nOpen findings (${findings.length}):\n${JSON.stringify(open)}`;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `timed out after ${seconds(timeoutMs)}`;
  }
  // fetch wraps network errors ('fetch failed') around the reason that says what happened.
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error instanceof Error ? error.message : String(error)}${cause}`;
}

/** `choices[0].message.content` of an OpenAI-compatible chat completion, or undefined. */
function contentOf(body: unknown): string | undefined {
  const choices = (body as { choices?: unknown } | null)?.choices;
  if (!Array.isArray(choices)) return undefined;
  const content = (choices[0] as { message?: { content?: unknown } } | undefined)?.message?.content;
  return typeof content === 'string' ? content : undefined;
}

/**
 * Asks the configured OpenAI-compatible endpoint (POST `${AI_BASE_URL}/chat/completions`, as served
 * by Ollama, llama.cpp's server, vLLM or a hosted API) for a short summary. Never throws: without
 * AI_BASE_URL and AI_MODEL the summary is 'disabled'; any failure (no answer within AI_TIMEOUT_MS,
 * an HTTP error, an answer without text) is 'failed' with the reason, and the caller keeps the
 * rule-based report as it is.
 */
export async function summarizeReport(
  config: Pick<Config, 'AI_BASE_URL' | 'AI_MODEL' | 'AI_API_KEY' | 'AI_TIMEOUT_MS'>,
  report: Omit<HealthReport, 'summary'>,
  findings: AnalysisResult[],
): Promise<ReportSummary> {
  const { AI_BASE_URL: baseUrl, AI_MODEL: model, AI_API_KEY: apiKey, AI_TIMEOUT_MS: timeoutMs } = config;
  if (!baseUrl || !model) return DISABLED_SUMMARY;
  const failed = (error: string): ReportSummary => ({ status: 'failed', text: null, model, error });
  try {
    // One signal for the whole exchange, body included: a server that sends headers and then stalls times out too.
    const response = await fetch(`${baseUrl}/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      },
      body: JSON.stringify({
        model,
        messages: [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: buildPrompt(report, findings) },
        ],
        temperature: 0.2,
        max_tokens: 400,
        stream: false,
      }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) {
      const detail = (await response.text()).slice(0, 200).trim();
      return failed(`HTTP ${response.status}${detail ? `: ${detail}` : ''}`);
    }
    const text = contentOf(await response.json())?.trim();
    if (!text) return failed('the answer held no choices[0].message.content');
    return { status: 'ok', text: text.slice(0, MAX_SUMMARY_CHARS), model, error: null };
  } catch (error) {
    return failed(describeFailure(error, timeoutMs));
  }
}
