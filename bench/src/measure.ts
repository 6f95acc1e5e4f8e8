export interface MeasureOptions<K extends string = string> {
  /** Untimed runs of every task first: the JIT compiles, caches fill. */
  warmup: number;
  /** Timed runs of every task. */
  runs: number;
  /** Calls per timed run; a sample is their mean. For operations too short to time one by one. */
  batch?: number;
  /** The clock, in milliseconds (default `performance.now`). */
  now?: () => number;
  /**
   * Called untimed before every timed run, with the name of the task about to run: for example a
   * full garbage collection, so that no run pays for the garbage of the one before it, or making
   * what that run needs (default: nothing).
   */
  settle?: (name: K) => void | Promise<void>;
  /**
   * The order of the tasks in a round. `fixed` (the default): the order of `tasks` every round.
   * `rotating`: each round starts one task further on, so that no task always runs just after the
   * same other one (whose garbage, or whatever it leaves the machine doing, lands on the next run).
   */
  order?: 'fixed' | 'rotating';
  /** Called untimed after every run, warm-up included, with the task's result: for example to close what the run opened. */
  after?: (result: unknown) => void | Promise<void>;
}

/** Results are kept here so the engine cannot drop a call whose value nobody reads. */
let sink: unknown;
export function lastResult(): unknown {
  return sink;
}

/**
 * Times several tasks that are compared with one another, round-robin: run i of each task comes
 * before run i + 1 of any, so a slow phase of the machine (another process, a GC of a large heap)
 * falls on all of them alike. A task that returns a promise is timed until it settles; a
 * synchronous one is never awaited, so timing it costs no microtask. Returns, per task, one
 * sample per run: milliseconds per call.
 */
export async function measure<K extends string>(tasks: Record<K, () => unknown>, options: MeasureOptions<NoInfer<K>>): Promise<Record<K, number[]>> {
  const { warmup, runs, batch = 1, now = () => performance.now(), settle, after, order = 'fixed' } = options;
  if (!Number.isInteger(runs) || runs < 1) throw new RangeError(`runs must be a positive integer, got ${runs}`);
  if (!Number.isInteger(batch) || batch < 1) throw new RangeError(`batch must be a positive integer, got ${batch}`);
  const names = Object.keys(tasks) as K[];
  const samples = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<K, number[]>;
  const call = (task: () => unknown): unknown => {
    // The previous result is garbage from here on: it must not stay alive while this task runs.
    sink = undefined;
    sink = task();
    return sink instanceof Promise ? sink.then((value: unknown) => (sink = value)) : undefined;
  };
  for (let i = 0; i < warmup; i++) {
    for (const name of names) {
      await call(tasks[name]);
      await after?.(sink);
    }
  }
  for (let i = 0; i < runs; i++) {
    for (const name of roundOrder(names, i, order)) {
      const task = tasks[name];
      sink = undefined;
      const settling = settle?.(name);
      if (settling) await settling;
      const start = now();
      for (let b = 0; b < batch; b++) {
        const pending = call(task);
        if (pending) await pending;
      }
      samples[name].push((now() - start) / batch);
      await after?.(sink);
    }
  }
  return samples;
}

/** The tasks in the order of round `round`. */
function roundOrder<K>(names: readonly K[], round: number, order: 'fixed' | 'rotating'): readonly K[] {
  switch (order) {
    case 'fixed':
      return names;
    case 'rotating': {
      const first = round % names.length;
      return [...names.slice(first), ...names.slice(0, first)];
    }
    default: {
      const unknown: never = order;
      throw new TypeError(`unknown order ${String(unknown)}`);
    }
  }
}
