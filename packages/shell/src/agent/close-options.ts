import { z } from 'zod';
import { AgentOptionsError } from '../errors/agent-options-error.js';

/** How `close()` treats a running turn. */
export interface CloseOptions {
  /**
   * Leave the running turn in the journal for `resumeAgent` (a host that restarts), as a crash at
   * this moment would, instead of aborting it: a parked approval waits again after the resume, a
   * model call is made again, a tool call cut short counts as interrupted. Needs a journal.
   */
  keepTurn?: boolean | undefined;
}

const CloseOptionsSchema = z.strictObject({ keepTurn: z.boolean().optional() }).optional();

/** Checked before anything is closed, so a refused close leaves the agent as it was. */
export function parseCloseOptions(options: unknown, hasJournal: boolean): CloseOptions {
  const parsed = CloseOptionsSchema.safeParse(options);
  if (!parsed.success) throw new AgentOptionsError(`agent.close: invalid options:\n${z.prettifyError(parsed.error)}`);
  const keepTurn = parsed.data?.keepTurn === true;
  if (keepTurn && !hasJournal) {
    throw new AgentOptionsError('agent.close: invalid options:\n✖ keepTurn needs a journal to keep the turn in, and this agent keeps none (give createAgent a journal, or a JSONL session)\n  → at keepTurn');
  }
  return { keepTurn };
}
