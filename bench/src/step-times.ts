/** How long one step of `pnpm bench` took, for the log it prints. */
export interface StepTime {
  label: string;
  seconds: number;
}

/**
 * The closing lines of the bench's log: every step with its wall time, the longest first, and
 * the total against the budget, so a run that grows past it says where the time went.
 */
export function stepTimesReport(steps: readonly StepTime[], totalSeconds: number, budgetSeconds: number): string[] {
  const width = Math.max(...steps.map((s) => s.label.length), 0);
  const longestFirst = [...steps].sort((a, b) => b.seconds - a.seconds);
  const share = (seconds: number) => (totalSeconds > 0 ? Math.round((100 * seconds) / totalSeconds) : 0);
  const verdict = totalSeconds <= budgetSeconds ? 'within' : 'OVER';
  return [
    'time per step, longest first:',
    ...longestFirst.map((s) => `  ${s.label.padEnd(width)}  ${s.seconds.toFixed(1).padStart(6)} s  ${String(share(s.seconds)).padStart(3)}%`),
    `total ${totalSeconds.toFixed(0)} s, ${verdict} the budget of ${budgetSeconds} s`,
  ];
}

/** Runs the steps of a bench, logging each as it starts and its time as it ends, and keeps the times. */
export function stepTimer(log: (line: string) => void, now: () => number = () => performance.now()) {
  const steps: StepTime[] = [];
  async function step<T>(label: string, work: () => T | Promise<T>): Promise<T> {
    log(`${label}…`);
    const began = now();
    try {
      return await work();
    } finally {
      const seconds = (now() - began) / 1000;
      steps.push({ label, seconds });
      log(`  ${seconds.toFixed(1)} s`);
    }
  }
  return { step, steps: steps as readonly StepTime[] };
}
