import type { ReadWarning } from '@tiller/session';
import type { TornLine } from './parse-journal.js';

/**
 * A journal line whose write was cut short, as a read warning (`kind: 'torn_line'`) of the journal
 * at `source` (its path, or what names it). The shell's `journal.warning` and the CLI's stderr both
 * say it through here, so a torn line is worded the same wherever a user meets it. The words name
 * no cause: a crash and a write the system refused (a full disk) leave the same line.
 */
export function tornLineWarning(source: string, torn: TornLine): ReadWarning {
  const reason = `the line is incomplete (a write was cut off): ${JSON.stringify(torn.text)}`;
  return { kind: 'torn_line', file: source, line: torn.line, reason, message: `${source}:${torn.line}: ${reason}; skipped` };
}
