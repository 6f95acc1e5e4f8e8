import { createTestModel } from '@xstate/graph';
import { parseEvent, turnMachine, type MachineEvent, type TurnSnapshot } from '@tiller/core';
import type { AnyStateNode, StateValue } from 'xstate';
import { describeValue } from './describe-value.js';
import { worldMoves, type GraphOptions } from './turn-graph.js';

/** A transition of the machine's definition: its source state, its event, its place among that event's candidates. */
export type TransitionKey = `${string} ${string} #${number}`;

function allStateNodes(node: AnyStateNode = turnMachine.root): AnyStateNode[] {
  return [node, ...Object.values(node.states).flatMap((child) => allStateNodes(child))];
}

/** Every state node of the turn machine, by id (`turn.tools.running`). */
export function turnMachineStates(): string[] {
  return allStateNodes().map((node) => node.id);
}

/** Every transition the turn machine's definition declares. */
export function turnMachineTransitions(): TransitionKey[] {
  return allStateNodes().flatMap((node) =>
    [...node.transitions.entries()].flatMap(([eventType, candidates]) => candidates.map((_, i): TransitionKey => `${node.id} ${eventType} #${i}`)),
  );
}

/** The transitions the machine takes for an event in a snapshot. */
export function transitionsTaken(snapshot: TurnSnapshot, event: MachineEvent): TransitionKey[] {
  return turnMachine.getTransitionData(snapshot, event).map((t) => {
    const candidates = t.source.transitions.get(t.eventType) ?? [];
    return `${t.source.id} ${t.eventType} #${candidates.indexOf(t)}` as TransitionKey;
  });
}

/** The state node ids a state value is in (`turn`, `turn.tools`, `turn.tools.running`). */
export function stateIds(value: StateValue): string[] {
  if (typeof value === 'string') return ['turn', `turn.${value}`];
  return Object.entries(value).flatMap(([parent, child]) => ['turn', `turn.${parent}`, `turn.${parent}.${String(child)}`]);
}

const EVERYTHING: GraphOptions = {
  classes: new Set(['allow', 'ask', 'deny']),
  hostActions: true,
  failures: { transient: true, overflow: true, fatal: true },
  replies: { error: true, aborted: true },
  toolFaults: { throw: true, timeout: true },
  approvalTimeout: true,
};

let reachable: { states: string[]; transitions: TransitionKey[] } | undefined;

/**
 * What the world can make the turn do through a shell: every state, and every transition some
 * move of the world takes from some reachable behaviour (tools of every policy class, every fault,
 * every host action). The rest of the definition answers inputs a shell never feeds (stale or
 * broken answers, a second `turn.start`, an abort while idle); the core's own tests take those.
 */
export function reachableByTheWorld(iterations = 1): { states: string[]; transitions: TransitionKey[] } {
  if (reachable && iterations === 1) return reachable;
  const transitions = new Set<TransitionKey>();
  const model = createTestModel(turnMachine, {
    input: { maxIterations: iterations, entries: [] },
    events: (snapshot) => worldMoves(snapshot, EVERYTHING).map((m) => parseEvent(m.input)),
    // A finite key (the queue by the kinds it holds), or the search never ends.
    serializeState: (snapshot) =>
      JSON.stringify([
        snapshot.value,
        (snapshot.context.turn?.iterations ?? 0) >= iterations,
        snapshot.context.turn?.overflowRetries ?? 0,
        ['steer', 'follow_up'].map((k) => snapshot.context.queue.some((q) => q.kind === k)),
        snapshot.context.turn?.batch?.calls.map((c) => c.name),
        (snapshot.context.turn?.batch?.decisions.length ?? 0) > 0,
        snapshot.value === 'idle' && snapshot.context.lastOutcome !== null,
      ]),
  });
  for (const path of model.getShortestPaths({ allowDuplicatePaths: true })) {
    for (const move of worldMoves(path.state, EVERYTHING)) for (const t of transitionsTaken(path.state, parseEvent(move.input))) transitions.add(t);
  }
  const result = { states: turnMachineStates(), transitions: turnMachineTransitions().filter((t) => transitions.has(t)) };
  if (iterations === 1) reachable = result;
  return result;
}

export interface CoverageReport {
  states: { covered: string[]; missing: string[] };
  transitions: { covered: TransitionKey[]; missing: TransitionKey[] };
  /** Covered over reachable, 0 to 1. */
  ratio: number;
  complete: boolean;
  toString(): string;
}

/** What `coverage` reads of a run: a `PathRun` has it. */
export type CoveredRun = { coverage: { states: readonly string[]; transitions: readonly string[] }; path: { iterations: number } };

/** What a set of runs covered of what the world can make the turn do (`reachableByTheWorld`). */
export function coverage(runs: readonly CoveredRun[]): CoverageReport {
  checkRuns(runs);
  const states = new Set<string>();
  const transitions = new Set<string>();
  for (const run of runs) {
    for (const s of run.coverage.states) states.add(s);
    for (const t of run.coverage.transitions) transitions.add(t);
  }
  const universe = reachableByTheWorld(runs[0]?.path.iterations ?? 1);
  const report = {
    states: { covered: universe.states.filter((s) => states.has(s)), missing: universe.states.filter((s) => !states.has(s)) },
    transitions: { covered: universe.transitions.filter((t) => transitions.has(t)), missing: universe.transitions.filter((t) => !transitions.has(t)) },
  };
  const total = universe.states.length + universe.transitions.length;
  const ratio = total === 0 ? 1 : (report.states.covered.length + report.transitions.covered.length) / total;
  const complete = report.states.missing.length === 0 && report.transitions.missing.length === 0;
  return {
    ...report,
    ratio,
    complete,
    toString: () =>
      [
        `states ${report.states.covered.length}/${universe.states.length}, transitions ${report.transitions.covered.length}/${universe.transitions.length} (${(ratio * 100).toFixed(1)}%)`,
        ...report.states.missing.map((s) => `  missing state ${s}`),
        ...report.transitions.missing.map((t) => `  missing transition ${t}`),
      ].join('\n'),
  };
}

/**
 * One run where the list was meant, or a run kept without its `await`, is the user's slip: said
 * as such, not as `runs is not iterable` from deep inside.
 */
function checkRuns(runs: unknown): asserts runs is readonly CoveredRun[] {
  if (!Array.isArray(runs)) {
    const got = isCoveredRun(runs) ? 'one run: collect every run in a list and pass the list' : describeValue(runs);
    throw new TypeError(`coverage: expected the list of runs (PathRun[]), got ${got}`);
  }
  runs.forEach((run: unknown, i) => {
    if (isCoveredRun(run)) return;
    const got = run instanceof Promise ? 'a Promise (await runPath(...) before you keep it)' : describeValue(run);
    throw new TypeError(`coverage: runs[${i}] is not a run: got ${got}`);
  });
}

function isCoveredRun(value: unknown): value is CoveredRun {
  const run = value as Partial<CoveredRun> | null | undefined;
  return (
    typeof run === 'object' &&
    run !== null &&
    Array.isArray(run.coverage?.states) &&
    Array.isArray(run.coverage?.transitions) &&
    typeof run.path?.iterations === 'number'
  );
}

/** Throws, listing what is missing, unless the runs covered every state and transition the world can reach. */
export function assertFullCoverage(runs: Parameters<typeof coverage>[0]): CoverageReport {
  const report = coverage(runs);
  if (!report.complete) throw new Error(missingCoverage(report));
  return report;
}

/** What a report that is not complete says is missing. */
export function missingCoverage(report: CoverageReport): string {
  return `the runs did not cover the turn machine:\n${report.toString()}\n(paths without approvals need a tool the policy asks for: agentPaths({ policy: { tool: 'ask' } }))`;
}
