import type { JournalWriter } from '../journal/journal-writer.js';
import type { Approvals } from './approvals.js';
import type { BackgroundWork } from './background-work.js';
import type { EventHub } from './event-hub.js';
import type { Mailbox } from './mailbox.js';
import type { OutcomeWaiters } from './outcome-waiters.js';
import type { SessionClaim } from './session-claim.js';

/** The parts of the runtime a close waits for or lets go. */
export interface ShutdownParts {
  approvals: Pick<Approvals, 'drop'>;
  background: Pick<BackgroundWork, 'running' | 'settled'>;
  mailbox: Pick<Mailbox<unknown>, 'drained'>;
  claim: Pick<SessionClaim, 'release'>;
  journal: Pick<JournalWriter, 'seal' | 'close'>;
  hub: Pick<EventHub, 'close'>;
  waiters: Pick<OutcomeWaiters, 'fail'>;
  /** Each turn has a signal of its own, so the one to abort is the one running at the time. */
  abortTurn(reason: string): void;
}

/** How the runtime ends: closed for good, or closed keeping its turn for `resumeAgent`. */
export interface Shutdown {
  /** Set as the runtime closes: an effect a resume would carry out later (a parked batch) is no longer parked. */
  closing(): boolean;
  /** Set by `keepAndClose`: the turn is left for `resumeAgent`, and no letter is applied any more. */
  kept(): Error | null;
  /**
   * Waits for the work in flight (a blocking effect's ends soon after an abort; the afterCompact
   * hooks told and queued each run to their end or their own time limit), then closes the journal
   * and the iterators.
   */
  close(): Promise<void>;
  /**
   * Closes without ending the running turn: the letter being applied finishes, nothing after it is
   * applied or journaled, the work in flight is stopped, and whoever waits for the turn hears
   * `closed`. The journal then holds the turn as a crash at this moment would leave it.
   */
  keepAndClose(closed: Error): Promise<void>;
}

export function createShutdown(parts: ShutdownParts): Shutdown {
  const { approvals, background, mailbox, claim, journal, hub, waiters } = parts;
  let closing = false;
  let kept: Error | null = null;

  const close = async () => {
    closing = true;
    approvals.drop();
    // Work in flight ends soon after an abort (every wait is raced against the signal); its answers then drain.
    // The afterCompact hooks are not cut short: their compaction is in the log, and no resume tells them
    // again, so what they do (a summary written to a memory file) would be lost; each has its own limit.
    while (background.running()) {
      await background.settled();
      await mailbox.drained();
    }
    await mailbox.drained();
    claim.release();
    try {
      await journal.close();
    } finally {
      // The iterators end whatever the journal's close did: a `for await` over the events must not wait for ever.
      hub.close();
    }
  };

  return {
    closing: () => closing,
    kept: () => kept,
    close,
    async keepAndClose(closed) {
      kept = closed;
      // The letter being applied finishes (its line and entries written); the ones after it are dropped.
      await mailbox.drained();
      journal.seal();
      parts.abortTurn(closed.message);
      waiters.fail(closed);
      await close();
    },
  };
}
