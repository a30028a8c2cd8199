import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FREE_SCRIPT_FILE } from '../common/public-defaults.ts';
import { buildTestApp, type TestApp } from '../server/test/helper.ts';
import { sampleNames } from '../server/test/prometheus-text.ts';

/*
 * docs/grafana/scanline.json is imported by operators as it is: every metric a panel queries must be
 * one the app exports, or the panel shows "No data" forever after a rename.
 */

interface Panel {
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  targets?: Array<{ expr: string }>;
}

const dashboard = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../docs/grafana/scanline.json'), 'utf8'),
) as {
  templating: { list: Array<{ name: string; type: string; query: unknown }> };
  panels: Panel[];
};
const queried = dashboard.panels.filter((p) => p.type !== 'row');

/** The metric names a PromQL expression reads (functions, labels and keywords left out). */
function metricNamesIn(expr: string): string[] {
  const withoutLabels = expr.replace(/\{[^}]*\}/g, '').replace(/\[[^\]]*\]/g, '');
  return [...withoutLabels.matchAll(/\b(scanline_\w+|http_\w+|process_\w+|nodejs_\w+)\b/g)].map(
    (m) => m[1] ?? '',
  );
}

describe('the Grafana dashboard', () => {
  let t: TestApp;
  let exported: Set<string>;
  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    // One answered request and one flush, so the histograms have series.
    await t.app.inject(`/api/script/loader?script=${FREE_SCRIPT_FILE}`);
    await t.app.pendingWrites.flush();
    exported = sampleNames(await t.ctx.services.metrics.text());
  });
  afterAll(async () => {
    await t?.close();
  });

  it('queries only metrics the app exports', () => {
    const names = queried.flatMap((p) => (p.targets ?? []).flatMap((target) => metricNamesIn(target.expr)));
    expect(names.length).toBeGreaterThan(20);
    expect([...new Set(names)].filter((name) => !exported.has(name))).toEqual([]);
  });

  it('reads every panel from the Prometheus data source the importer picks', () => {
    const variable = dashboard.templating.list.find((v) => v.type === 'datasource');
    expect(variable).toMatchObject({ name: 'datasource', query: 'prometheus' });
    // Grafana's reference to the variable (a plain string in the JSON, not a template literal).
    const reference = `\${${variable?.name}}`;
    const elsewhere = queried.filter((p) => p.datasource?.uid !== reference).map((p) => p.title);
    expect(elsewhere).toEqual([]);
  });

  it('has a panel for each family the issue names', () => {
    const exprs = queried.flatMap((p) => (p.targets ?? []).map((target) => target.expr)).join('\n');
    for (const family of [
      'http_request_duration_seconds_bucket',
      'scanline_sockets_open',
      'scanline_bots',
      'scanline_hops_total',
      'scanline_finds_total',
      'scanline_pool_servers',
      'scanline_pool_claims_total',
      'scanline_config_targets',
      'scanline_emergency_stopped',
      'scanline_feed_deliveries_total',
      'scanline_rate_limit_refusals_total',
      'scanline_writer_queue_rows',
      'scanline_writer_flush_duration_seconds_bucket',
      'scanline_writer_rows_set_aside_total',
      'scanline_audit_rows_written_total',
      'nodejs_eventloop_lag_p99_seconds',
      'process_resident_memory_bytes',
    ]) {
      expect(exprs).toContain(family);
    }
  });
});
