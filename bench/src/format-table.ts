import { verdictsOf, type Scaling, type Verdict } from './goals.js';
import { OPERATIONS, ratioOf, type Measurement, type Unit } from './measurement.js';

const UNIT_TEXT: Record<Unit, string> = { ms: 'ms', us: 'µs', MB: 'MB', KB: 'KB', 'events/s': 'events/s', 'turns/s': 'turns/s', 'deltas/s': 'deltas/s' };

/** A number with about three significant digits, thousands grouped: 1,148 / 41.2 / 0.0523. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : abs >= 0.01 ? 3 : 4;
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function formatValue(value: number, unit: Unit): string {
  return `${formatNumber(value)} ${UNIT_TEXT[unit]}`;
}

/** 1,018 stays exact; round thousands read as 10k, 100k. */
export function formatSize(entries: number): string {
  return entries >= 1000 && entries % 1000 === 0 ? `${entries / 1000}k` : entries.toLocaleString('en-US');
}

export function formatRatio(ratio: number | undefined, bound = false): string {
  return ratio === undefined ? '' : `${bound ? '< ' : ''}${formatNumber(ratio)}x`;
}

function formatReference(m: Measurement): string {
  if (!m.reference) return '';
  const value = formatValue(m.reference.value, m.unit);
  return `${m.reference.name}: ${m.reference.overLimit ? `over ${value} (stopped at the limit)` : value}`;
}

function formatVerdicts(verdicts: readonly Verdict[]): string {
  return verdicts.map(formatVerdict).join('; ');
}

function formatVerdict(verdict: Verdict): string {
  const status = verdict.met === undefined ? 'no data' : verdict.met ? '**met**' : '**not met**';
  return `${verdict.goal}: ${status}`;
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.map((c) => c.replaceAll('|', '\\|')).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** The main results: Tiller beside pi, a peer or a floor, with the ratio and the goals for the row. */
export function resultsTable(all: readonly Measurement[]): string {
  const rows = all.map((m) => [
    OPERATIONS[m.operation],
    formatSize(m.size),
    formatValue(m.tiller, m.unit),
    formatReference(m),
    formatRatio(ratioOf(m), m.reference?.overLimit),
    formatVerdicts(verdictsOf(m, all)),
  ]);
  return table(['operation', 'size', 'Tiller (median)', 'compared with (median)', 'ratio', 'goal'], rows);
}

/** How each timed operation grows from one session size to a ten times longer one. */
export function scalingTable(rows: readonly Scaling[]): string {
  return table(
    ['operation', 'size', 'Tiller growth', 'compared with: growth', 'goal'],
    rows.map((s) => [
      OPERATIONS[s.operation],
      `${formatSize(s.from)} → ${formatSize(s.to)}`,
      formatRatio(s.tiller),
      s.reference ? `${s.reference.name}: ${formatRatio(s.reference.value)}` : '',
      formatVerdict(s.verdict),
    ]),
  );
}
