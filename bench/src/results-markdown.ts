import { resultsTable, scalingTable } from './format-table.js';
import { scalingOf } from './goals.js';
import { OPERATIONS, type Measurement, type OperationId } from './measurement.js';

export interface RunInfo {
  /** When the run ended, ISO 8601. */
  date: string;
  /** Versions of what was compared, for example `pi 0.73.1`. */
  versions: readonly string[];
  /** Session sizes in entries, smallest first. */
  sizes: readonly number[];
  /** Wall time of the whole run, seconds. */
  seconds: number;
  /** What conversation every row repeats (the recording, or a generated stand-in). */
  source?: string;
  /** Shown above the tables, one paragraph each: for example that the recording was absent, or rows left out and why. */
  notes?: readonly string[];
}

const ORDER = Object.keys(OPERATIONS) as OperationId[];

/** Rows grouped by operation in the table's order, then by size. */
export function sortMeasurements(all: readonly Measurement[]): Measurement[] {
  return [...all].sort((a, b) => ORDER.indexOf(a.operation) - ORDER.indexOf(b.operation) || a.size - b.size);
}

/** bench/RESULTS.md: the results table and the growth from each size to the next tenfold one. */
export function resultsMarkdown(all: readonly Measurement[], info: RunInfo): string {
  const sorted = sortMeasurements(all);
  const scaling = info.sizes.flatMap((from) => (info.sizes.includes(from * 10) ? scalingOf(sorted, from, from * 10) : []));
  return [
    '# Benchmark results',
    '',
    `Written by \`pnpm bench\` on ${info.date} (${info.versions.join(', ')}; the whole run took ${Math.round(info.seconds)} s).`,
    ...(info.source ? [`Every session and history repeats ${info.source}.`] : []),
    ...(info.notes ?? []).flatMap((note) => ['', `**Note:** ${note}.`, '']),
    "Medians of several runs after a warm-up; the ratio is Tiller over what it is compared with (for rates, the other way round), so below 1 Tiller is faster or smaller. In the agent rows, where the loops take turns run by run, it is the median of the ratios of runs taken in the same round (beside a loop stopped at the limit, Tiller's median over the limit).",
    'How each number is measured: [docs/performance.md](../docs/performance.md).',
    '',
    resultsTable(sorted),
    '',
    '## Scaling',
    '',
    scaling.length > 0 ? scalingTable(scaling) : 'No two sizes ten times apart were measured.',
    '',
  ].join('\n');
}
