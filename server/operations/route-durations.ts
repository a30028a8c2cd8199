/*
 * `http_request_duration_seconds`, recorded on every response, the loader's hot path included. A
 * prom-client Histogram validates and hashes its label object on each observation (3–4 µs here under
 * load, several percent of a loader call); this keeps one record per (method, route, status), found
 * by one Map lookup, and writes the Prometheus text itself at scrape time.
 */

interface Series {
  method: string;
  route: string;
  status: string;
  /** Observations per bucket (not cumulative); the last slot is past every bound (+Inf only). */
  counts: Float64Array;
  sum: number;
  count: number;
}

/** `\`, `"` and line breaks escaped, as the text format wants label values. */
function labelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** One series' figures since start. */
export interface RouteTotal {
  method: string;
  route: string;
  status: number;
  count: number;
  seconds: number;
}

export class RouteDurations {
  /** route -> method -> status -> its series. */
  private readonly series = new Map<string, Map<string, Map<number, Series>>>();

  constructor(
    readonly name: string,
    private readonly help: string,
    /** Upper bounds in seconds, ascending. */
    private readonly bounds: readonly number[],
  ) {}

  record(method: string, route: string, statusCode: number, seconds: number): void {
    // Nested maps rather than one joined key: no string is built per request.
    let byMethod = this.series.get(route);
    if (byMethod === undefined) {
      byMethod = new Map();
      this.series.set(route, byMethod);
    }
    let byStatus = byMethod.get(method);
    if (byStatus === undefined) {
      byStatus = new Map();
      byMethod.set(method, byStatus);
    }
    let series = byStatus.get(statusCode);
    if (series === undefined) {
      series = {
        method,
        route,
        status: String(statusCode),
        counts: new Float64Array(this.bounds.length + 1),
        sum: 0,
        count: 0,
      };
      byStatus.set(statusCode, series);
    }
    let bucket = 0;
    while (bucket < this.bounds.length && seconds > (this.bounds[bucket] ?? 0)) bucket++;
    series.counts[bucket] = (series.counts[bucket] ?? 0) + 1;
    series.sum += seconds;
    series.count += 1;
  }

  /** Each series' count and sum of seconds so far (the log's minute summary takes differences). */
  totals(): RouteTotal[] {
    const totals: RouteTotal[] = [];
    for (const byMethod of this.series.values())
      for (const byStatus of byMethod.values())
        for (const s of byStatus.values())
          totals.push({
            method: s.method,
            route: s.route,
            status: Number(s.status),
            count: s.count,
            seconds: s.sum,
          });
    return totals;
  }

  /** The histogram in the Prometheus text format (HELP, TYPE, then each series' buckets, sum and count). */
  exposition(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const byMethod of this.series.values())
      for (const byStatus of byMethod.values())
        for (const s of byStatus.values()) {
          const labels = `method="${labelValue(s.method)}",route="${labelValue(s.route)}",status_code="${s.status}"`;
          let cumulative = 0;
          this.bounds.forEach((bound, i) => {
            cumulative += s.counts[i] ?? 0;
            lines.push(`${this.name}_bucket{le="${bound}",${labels}} ${cumulative}`);
          });
          lines.push(`${this.name}_bucket{le="+Inf",${labels}} ${s.count}`);
          lines.push(`${this.name}_sum{${labels}} ${s.sum}`);
          lines.push(`${this.name}_count{${labels}} ${s.count}`);
        }
    return `${lines.join('\n')}\n`;
  }
}
