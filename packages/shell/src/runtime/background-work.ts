import { now } from '../clock.js';
import type { EffectAnswer } from '../effects/effect-context.js';
import { describeThrown } from '../describe-thrown.js';

/**
 * The work of blocking effects, each run in the background until it answers. A job that fails
 * (the shell itself failed at the effect: a journal write, a hook) is reported, and the turn is
 * answered with an abort that says why.
 */
export interface BackgroundWork {
  /** Starts `work` with `signal`; its answer (or the abort its failure becomes) goes to `answer` under `id`. */
  start(id: string, where: string, work: (signal: AbortSignal) => Promise<EffectAnswer>, signal: AbortSignal): void;
  /** Keeps `work` that answers no effect (an answer's `applied`), which the turn goes on beside; a failure is reported, nothing else. */
  keep(where: string, work: Promise<void>): void;
  /** Whether any job is still running. */
  running(): boolean;
  /** Resolves once every job running now has ended. */
  settled(): Promise<void>;
}

export interface BackgroundWorkSinks {
  answer(id: string, answer: EffectAnswer): void;
  /** A job failed; `message` is what the abort it becomes says. */
  failed(where: string, message: string): void;
}

export function createBackgroundWork(sinks: BackgroundWorkSinks): BackgroundWork {
  const inFlight = new Set<Promise<void>>();
  const track = (work: Promise<void>) => {
    const job: Promise<void> = work.finally(() => inFlight.delete(job));
    inFlight.add(job);
  };
  const failure = (where: string, error: unknown) => `the shell failed while ${where}: ${describeThrown(error)}`;
  return {
    start(id, where, work, signal) {
      track(
        work(signal).then(
          (answer) => sinks.answer(id, answer),
          (error: unknown) => {
            const message = failure(where, error);
            sinks.failed(where, message);
            sinks.answer(id, { input: { type: 'abort', at: now(), reason: message } });
          },
        ),
      );
    },
    keep(where, work) {
      track(work.catch((error: unknown) => sinks.failed(where, failure(where, error))));
    },
    running: () => inFlight.size > 0,
    settled: async () => {
      await Promise.allSettled([...inFlight]);
    },
  };
}
