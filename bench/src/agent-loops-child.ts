import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CALLS_PER_TURN } from './instant-model.js';
import type { LoopId } from './loops.js';

const script = join(dirname(fileURLToPath(import.meta.url)), 'measure-agent.ts');

/**
 * What one history length gave, run by run: each loop's time per model call in every timed run,
 * and a fresh loop's first turn (untimed in the per-call figure) before each, both in the order of
 * the rounds (run i of every loop was taken in round i, one after the other); and the loops
 * stopped at the limit.
 */
export interface LoopTimes {
  perCallMs: Partial<Record<LoopId, number[]>>;
  firstTurnMs: Partial<Record<LoopId, number[]>>;
  overLimit: LoopId[];
}

type Runs = Pick<LoopTimes, 'perCallMs' | 'firstTurnMs'>;
type ChildLine = { probing: LoopId } | { probed: LoopId; perCallMs: number } | Runs;

/**
 * Runs measure-agent.ts for `loops` at `size` messages in a child process, watching its probes:
 * a loop whose probe turn (two model calls; the probe has two turns) takes longer than `limitMs`
 * a call is stopped there, not run to the end: the child is killed and started again without it, and the
 * loop is reported over the limit. `needed`, when given, is the loop the process is for: once it
 * is over the limit, the others are not timed without it.
 */
export async function timeLoops(size: number, loops: readonly LoopId[], dir: string, limitMs: number, needed?: LoopId): Promise<LoopTimes> {
  const overLimit: LoopId[] = [];
  let remaining = [...loops];
  while (remaining.length > 0 && (needed === undefined || remaining.includes(needed))) {
    const outcome = await runOnce(size, remaining, dir, limitMs * CALLS_PER_TURN);
    if (outcome.kind === 'done') return { perCallMs: outcome.runs.perCallMs, firstTurnMs: outcome.runs.firstTurnMs, overLimit };
    overLimit.push(outcome.loop);
    remaining = remaining.filter((id) => id !== outcome.loop);
  }
  return { perCallMs: {}, firstTurnMs: {}, overLimit };
}

type Outcome = { kind: 'done'; runs: Runs } | { kind: 'over'; loop: LoopId };

function runOnce(size: number, loops: readonly LoopId[], dir: string, turnLimitMs: number): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, script, String(size), loops.join(','), dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    let buffered = '';
    let timer: NodeJS.Timeout | undefined;
    let settled: Outcome | undefined;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = JSON.parse(buffered.slice(0, newline)) as ChildLine;
        buffered = buffered.slice(newline + 1);
        if ('probing' in line) {
          // Each probe turn gets the limit anew: a loop over it is stopped after its first turn.
          const loop = line.probing;
          clearTimeout(timer);
          timer = setTimeout(() => {
            settled = { kind: 'over', loop };
            child.kill('SIGKILL');
          }, turnLimitMs);
        } else if ('probed' in line) {
          clearTimeout(timer);
        } else {
          settled = { kind: 'done', runs: line };
        }
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (settled) resolve(settled);
      else reject(new Error(`measure-agent.ts ${size} ${loops.join(',')} exited with ${signal ?? code} before its results`));
    });
  });
}
