import type { SessionLog } from '@tiller/session';
import type { ResolvedAgentOptions } from '../agent/agent-options.js';
import { now } from '../clock.js';
import { JOURNAL_FORMAT, JOURNAL_VERSION, type JournalHeader } from './journal-format.js';

/** The compactor's reserve for the header, when it has one (checked when the options were resolved). */
const reserveOf = ({ compactor, compactorOptions, model }: ResolvedAgentOptions): { reserveTokens?: number } => {
  const reserve = compactor.reserveFor?.(model.id, compactorOptions);
  return reserve === undefined ? {} : { reserveTokens: reserve };
};

/** The header of a new journal segment: where the run starts, with which model and compactor reserve. */
export function journalHeader(options: ResolvedAgentOptions, session: SessionLog, baseSize: number): JournalHeader {
  return {
    type: 'header',
    format: JOURNAL_FORMAT,
    version: JOURNAL_VERSION,
    model: { id: options.model.id, contextWindow: options.model.contextWindow ?? null },
    ...reserveOf(options),
    maxIterations: options.limits.maxIterations,
    baseLeafId: session.leafId,
    baseSize,
    sessionSize: session.size,
    createdAt: now(),
  };
}
