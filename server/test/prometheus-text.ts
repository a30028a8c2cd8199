/*
 * Reading the Prometheus text format in tests: the metric families an exposition declares, and one
 * sample's value by name and labels.
 */

/** The family names declared with `# TYPE` (a histogram's samples add _bucket, _sum and _count). */
export function metricFamilies(text: string): Set<string> {
  const names = new Set<string>();
  for (const match of text.matchAll(/^# TYPE (\S+) \S+$/gm)) names.add(match[1] ?? '');
  return names;
}

/** The sample names of every line (`name{labels} value`): histogram series included. */
export function sampleNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const match of text.matchAll(/^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]/gm)) names.add(match[1] ?? '');
  return names;
}

function labelsOf(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const match of text.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[match[1] ?? ''] = match[2] ?? '';
  return labels;
}

/**
 * The value of the sample `name` whose labels include `labels`, summed over the samples that match
 * (a histogram's count over every status, say); undefined when none does.
 */
export function sampleValue(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  let total: number | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const own = labelsOf(match[2] ?? '');
    if (Object.entries(labels).every(([k, v]) => own[k] === v)) total = (total ?? 0) + Number(match[3]);
  }
  return total;
}
