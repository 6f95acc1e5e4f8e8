import { NoOpCompactor } from '@tiller/compaction';
import { parseEvent, start, step as stepTurn, type TurnOutcome, type TurnSnapshot } from '@tiller/core';
import { createSessionLog, type SessionLog } from '@tiller/session';
import {
  createAgent,
  memoryJournal,
  resumeAgent,
  type Agent,
  type AgentEvent,
  type AgentOptions,
  type JournalLine,
  type JournalStore,
  type Tool,
} from '@tiller/shell';
import { z } from 'zod';
import { checkOptions, nonnegativeInt, positiveInt } from '../check-options.js';
import { stateIds, transitionsTaken } from '../coverage.js';
import { formatPath, parsePath, stepLabel, type AgentPath, type PathStep, type ToolOutcomeKind } from '../path-step.js';
import { stateName } from '../turn-graph.js';
import { unansweredCalls } from '../transcript.js';
import { DurableStore } from './durable-store.js';
import { checkInvariants, type BrokenInvariant, type UserInvariant } from './invariants.js';
import { hostView } from './host-view.js';
import { createWorld, type ModelAttempt, type ToolRun, type World } from './world.js';

/** What the agent under test is: `createAgent`'s options (the kit gives the model, session and journal) and the host code beside it. */
export interface AgentUnderTest extends Omit<AgentOptions, 'model' | 'session' | 'journal'> {
  /**
   * Host code that runs beside the agent, as your app does (it subscribes, forwards, logs). It is
   * called for each agent of the run, the one resumed after a crash included. It must not approve
   * or abort on its own: the path does that.
   */
  host?: (agent: Agent) => void;
}

/** What `makeAgent` gets from the run. */
export interface AgentWorld {
  /** Your tools, watched by the run: build the agent (and anything that calls tools) with these. */
  tools<T extends readonly Tool[]>(tools: T): T;
}

export type MakeAgent = (world: AgentWorld) => AgentUnderTest;

export interface RunPathOptions {
  /** Your own invariants over the run, checked beside Tiller's. */
  invariants?: readonly UserInvariant[];
  /** How long the run waits for the agent to reach each step. Default 2 000 ms. */
  stepTimeoutMs?: number;
  /** The tools' time limit in paths where a tool times out. Default 40 ms. */
  toolTimeoutMs?: number;
  /** The approval time limit in paths where an approval times out. Default 40 ms. */
  approvalTimeoutMs?: number;
  /** How long a tool may take to stop once its turn was aborted or closed. Default 20 ms. */
  abortGraceMs?: number;
}

/** Everything a run saw. */
export interface PathRun {
  path: AgentPath;
  /** True when no invariant broke. */
  passed: boolean;
  broken: BrokenInvariant[];
  /** The journal as the last process left it (every segment). */
  journal: JournalLine[];
  /** Every event, of every process of the run. */
  events: AgentEvent[];
  /** Every run of the agent's tools. */
  toolRuns: ToolRun[];
  outcomes: TurnOutcome[];
  /** The session log of the last process. */
  session: SessionLog;
  /** The snapshot the last process ended with. */
  snapshot: TurnSnapshot;
  /** How many processes ran the path (1 + crashes). */
  processes: number;
  /** The state after each input of the journal. */
  states: string[];
  /** The states and transitions of the turn machine the run took. */
  coverage: { states: string[]; transitions: string[] };
  /** The agent's tools, as it was built with them. */
  tools: readonly Tool[];
  /** A readable account: the path, what broke, and the script to replay it with. */
  report(): string;
}

const INPUT_OF: Record<PathStep['do'], string | null> = {
  prompt: 'turn.start',
  steer: 'steer',
  follow_up: 'follow_up',
  abort: 'abort',
  boundary: 'compaction.done',
  reply: 'llm.done',
  fail: 'llm.failed',
  policy_asks: 'approval.needed',
  tools: 'tools.done',
  approve: 'approval.decided',
  crash: null,
};

class Deviation extends Error {}

/**
 * Builds the agent with the world's model and drives it through the real shell along the path:
 * each step waits until the agent waits where the step applies, acts (a host call, the model's
 * answer, the tools' outcome, a decision, a crash and resume), and checks that the turn went
 * where the path says. Then checks every invariant over what happened.
 */
const RunPathOptions = z.strictObject({
  invariants: z
    .array(
      z.custom<UserInvariant>((value) => typeof (value as UserInvariant | undefined)?.name === 'string' && typeof (value as UserInvariant).check === 'function', {
        message: 'expected an invariant {name, check(run)}',
      }),
    )
    .optional(),
  stepTimeoutMs: positiveInt.optional(),
  toolTimeoutMs: positiveInt.optional(),
  approvalTimeoutMs: positiveInt.optional(),
  abortGraceMs: nonnegativeInt.optional(),
});

export async function runPath(script: AgentPath | string, makeAgent: MakeAgent, options: RunPathOptions = {}): Promise<PathRun> {
  checkOptions('runPath', RunPathOptions, options);
  const path = parsePath(script);
  const stepTimeoutMs = options.stepTimeoutMs ?? 2_000;
  const world = createWorld();
  const watchedTools = new Map<Tool, Tool>();
  const made = makeAgent({ tools: (tools) => tools.map((t) => watched(t)) as never });
  const { host, ...agentOptions } = made;
  // The shell's default is three retries (docs/shell.md).
  world.attemptsBeforeGivingUp = (agentOptions.limits?.maxRetries ?? 3) + 1;
  function watched(tool: Tool): Tool {
    if (isWatched(tool)) return tool;
    let copy = watchedTools.get(tool);
    if (!copy) {
      copy = world.instrument(tool);
      watchedSet.add(copy);
      watchedTools.set(tool, copy);
    }
    return copy;
  }
  const timesOut = path.steps.some((s) => s.step.do === 'tools' && s.step.outcome === 'timeout');
  const approvalTimesOut = path.steps.some((s) => s.step.do === 'approve' && s.step.decision === 'timeout');
  const tools = (agentOptions.tools ?? []).map((t) => {
    const w = watched(t);
    return timesOut ? { ...w, timeoutMs: options.toolTimeoutMs ?? 40 } : w;
  });
  const base = {
    ...agentOptions,
    model: world.model,
    tools,
    compactor: world.wrapCompactor(agentOptions.compactor ?? NoOpCompactor),
    limits: {
      ...agentOptions.limits,
      maxIterations: path.iterations,
      // The world answers at once: retries need not wait.
      retryBaseDelayMs: 0,
      retryMaxDelayMs: 1,
      ...(approvalTimesOut ? { approvalTimeoutMs: options.approvalTimeoutMs ?? 40 } : {}),
    },
  } satisfies AgentOptions;

  const events: AgentEvent[] = [];
  const outcomes: TurnOutcome[] = [];
  const misuse: string[] = [];
  const deviations: string[] = [];
  let store = new DurableStore();
  let session = createSessionLog(store);
  let journal: JournalStore & { readonly lines: readonly JournalLine[] } = memoryJournal();
  let processes = 1;
  const listen = (generation: number) => (event: AgentEvent) => {
    if (world.generation === generation) events.push(event);
  };
  let agent = createAgent({ ...base, session, journal });
  agent.subscribe(listen(1));
  const mirror = createMirror(() => session);
  const inputs = () => mirror.advance(journal.lines);
  world.attach({ agent, store, inputs: () => mirror.inputCount });
  host?.(hostView(agent, world, 1, (m) => misuse.push(m)));

  const waitUntil = async (condition: () => boolean, what: string) => {
    const deadline = Date.now() + stepTimeoutMs;
    for (let spins = 0; !condition(); spins++) {
      if (Date.now() > deadline) throw new Deviation(`waited ${stepTimeoutMs} ms for ${what}; the turn is in ${stateName(agent.snapshot.value)}`);
      await (spins < 200 ? new Promise((r) => setImmediate(r)) : new Promise((r) => setTimeout(r, 1)));
    }
  };

  /** Waits until the agent waits where `step` applies: the world holds the work of the effect the turn is on. */
  const parked = async (step: PathStep) => {
    if (step.do === 'policy_asks') return;
    const pending = mirror.snapshot?.context.turn?.pending?.type;
    const answered = mirror.inputCount;
    switch (pending) {
      case undefined:
        return waitUntil(() => agent.snapshot.context.turn === null, 'the turn to end');
      case 'maybe_compact':
        return waitUntil(() => world.holding.compaction(), 'the compactor to be asked');
      case 'call_llm':
        return waitUntil(() => world.holding.model(), 'the model to be called');
      case 'run_tools': {
        const ran = world.runs.length;
        // A call the world holds, one that hangs (a timeout), or a batch that answered on its own.
        await waitUntil(() => world.holding.tools() || world.runs.length > ran || inputs() > answered, 'the tools to run');
        // Before a crash, let what the tools do for real finish: the crash comes after their effect.
        if (step.do === 'crash') await waitUntil(() => world.runs.every((r) => r.settled || r.generation !== world.generation), 'the running tools to finish');
        return;
      }
      case 'request_approval':
        return waitUntil(() => agent.pendingApprovals().length > 0, 'the approval request');
      default: {
        const unknown: never = pending;
        throw new TypeError(`unknown pending effect ${String(unknown)}`);
      }
    }
  };

  /** The snapshot of the process that wrote the journal last: a resumed agent that wrote nothing did not. */
  let lastWriter = null as { snapshot: TurnSnapshot; inputs: number } | null;
  const crash = async () => {
    // What the process had written is what survives it.
    const lines = JSON.parse(JSON.stringify(journal.lines)) as JournalLine[];
    lastWriter = { snapshot: agent.snapshot, inputs: inputs() };
    const written = [...store.lines];
    world.die();
    await agent.close().catch(() => undefined);
    world.revive();
    processes += 1;
    store = new DurableStore(written);
    session = createSessionLog(store);
    journal = memoryJournal(lines);
    mirror.restart(journal.lines);
    agent = await resumeAgent({ ...base, session, journal, listener: listen(world.generation) });
    world.attach({ agent, store, inputs: () => mirror.inputCount });
    host?.(hostView(agent, world, world.generation, (m) => misuse.push(m)));
  };

  const act = async (step: PathStep, index: number) => {
    switch (step.do) {
      case 'prompt': {
        const turn = agent.prompt(`prompt ${index + 1}`);
        turn.then((o) => outcomes.push(o), (e: unknown) => deviations.push(`prompt() at step ${index + 1} failed: ${(e as Error).message}`));
        return;
      }
      case 'steer':
        return agent.steer(`steer at step ${index + 1}`);
      case 'follow_up':
        return agent.followUp(`follow-up at step ${index + 1}`);
      case 'abort':
        return agent.abort('aborted by the host');
      case 'boundary':
        if (!world.releaseCompaction()) throw new Deviation('nothing waits at the boundary');
        return;
      case 'reply': {
        const calls = step.calls.map((c, j) => ({ ...c, id: `call-${index + 1}-${j + 1}` }));
        world.planCalls(
          calls.map((c) => c.id),
          outcomeAfter(path, index),
        );
        const attempts: ModelAttempt[] = [...step.retried.map((error) => ({ kind: 'fail' as const, error })), { kind: 'reply', reply: step.reply, calls }];
        if (!world.answerModel(attempts)) throw new Deviation('no model call waits for the reply');
        return;
      }
      case 'fail': {
        const attempts: ModelAttempt[] =
          step.error === 'transient' ? Array.from({ length: world.attemptsBeforeGivingUp }, () => ({ kind: 'fail', error: 'transient' })) : [{ kind: 'fail', error: step.error }];
        if (!world.answerModel(attempts)) throw new Deviation('no model call waits for the failure');
        return;
      }
      case 'policy_asks':
        return;
      case 'tools':
        world.releaseTools();
        return;
      case 'approve': {
        if (step.decision === 'timeout') return;
        const calls = agent.pendingApprovals();
        agent.approve(calls.map((c) => (step.decision === 'allow' ? { toolCallId: c.id, decision: 'allow' as const } : { toolCallId: c.id, decision: 'deny' as const, rationale: 'The user said no.' })));
        return;
      }
      case 'crash':
        return crash();
      default: {
        const unknown: never = step;
        throw new TypeError(`unknown step ${JSON.stringify(unknown)}`);
      }
    }
  };

  let expected = 0;
  try {
    for (const [index, { step, state }] of path.steps.entries()) {
      const where = `step ${index + 1} (${stepLabel(step)})`;
      try {
        await parked(step);
        await act(step, index);
        const input = INPUT_OF[step.do];
        if (input === null) continue;
        expected += 1;
        await waitUntil(() => inputs() >= expected, `the ${input} input`);
        const fed = mirror.inputTypes[expected - 1];
        if (fed !== input) throw new Deviation(`the turn got ${fed} where the path expects ${input}`);
        const reached = mirror.states[expected - 1];
        if (reached !== state) throw new Deviation(`the turn went to ${reached} where the path expects ${state}`);
      } catch (error) {
        if (!(error instanceof Deviation)) throw error;
        deviations.push(`${where}: ${error.message}`);
        break;
      }
    }
  } finally {
    await agent.close().catch((error: unknown) => deviations.push(`close() failed: ${(error as Error).message}`));
  }
  inputs();
  // A tool that honours its signal stops at once; give the others a moment before judging them.
  const graceUntil = Date.now() + (options.abortGraceMs ?? 20);
  while (world.runs.some((r) => !r.settled && r.generation === world.generation) && Date.now() < graceUntil) await new Promise((r) => setTimeout(r, 1));
  const writer = lastWriter && lastWriter.inputs === mirror.inputCount ? lastWriter.snapshot : agent.snapshot;

  const run: Omit<PathRun, 'passed' | 'broken' | 'report'> = {
    path,
    journal: [...journal.lines],
    events,
    toolRuns: world.runs,
    outcomes,
    session,
    snapshot: writer,
    processes,
    states: mirror.states,
    coverage: { states: [...mirror.coveredStates], transitions: [...mirror.coveredTransitions] },
    tools,
  };
  const broken = [
    ...deviations.map((message) => ({ invariant: 'follows-path', message })),
    ...checkInvariants(run, { world, store, misuse, boundaryProblems: mirror.boundaryProblems, finalGeneration: world.generation }),
  ];
  for (const invariant of options.invariants ?? []) {
    let found: string | readonly string[] | void | undefined;
    try {
      found = invariant.check({ ...run, passed: broken.length === 0, broken, report: () => '' });
    } catch (error) {
      found = `the check threw: ${(error as Error).message}`;
    }
    for (const message of typeof found === 'string' ? [found] : (found ?? [])) broken.push({ invariant: invariant.name, message });
  }
  return { ...run, passed: broken.length === 0, broken, report: () => describeRun(path, broken) };
}

const watchedSet = new WeakSet<Tool>();
const isWatched = (tool: Tool) => watchedSet.has(tool);

/** The outcome of the tools step that answers the reply at `index`, if the path gets there. */
function outcomeAfter(path: AgentPath, index: number): ToolOutcomeKind {
  for (const { step } of path.steps.slice(index + 1)) {
    if (step.do === 'tools') return step.outcome;
    if (step.do === 'reply' || step.do === 'prompt' || step.do === 'fail') break;
  }
  return 'ok';
}

/**
 * The turn as the journal tells it: every input stepped through the core, so the run knows the
 * state after each input, the transitions taken and the transcript at every boundary.
 */
function createMirror(sessionNow: () => SessionLog) {
  let read = 0;
  let snapshot: TurnSnapshot | undefined;
  const mirror = {
    inputCount: 0,
    inputTypes: [] as string[],
    states: [] as string[],
    coveredStates: new Set<string>(),
    coveredTransitions: new Set<string>(),
    boundaryProblems: [] as string[],
    get snapshot() {
      return snapshot;
    },
    advance(lines: readonly JournalLine[]): number {
      for (; read < lines.length; read++) {
        const line = lines[read]!;
        if (line.type === 'header') {
          snapshot = start({ maxIterations: line.maxIterations, entries: line.baseLeafId === null ? [] : sessionNow().path(line.baseLeafId) });
          for (const id of stateIds(snapshot.value)) mirror.coveredStates.add(id);
        }
        if (line.type !== 'input' || !snapshot) continue;
        for (const t of transitionsTaken(snapshot, parseEvent(line.input))) mirror.coveredTransitions.add(t);
        snapshot = stepTurn(snapshot, line.input).snapshot;
        const state = stateName(snapshot.value);
        for (const id of stateIds(snapshot.value)) mirror.coveredStates.add(id);
        mirror.inputCount += 1;
        mirror.inputTypes.push(line.input.type);
        mirror.states.push(state);
        if (state === 'steering' || state === 'idle') {
          for (const problem of unansweredCalls(snapshot.context.view)) mirror.boundaryProblems.push(`after input ${mirror.inputCount} (${line.input.type}), ${problem}`);
        }
      }
      return mirror.inputCount;
    },
    /** A resumed process continues the same journal: keep what was read, read on from there. */
    restart(lines: readonly JournalLine[]) {
      read = Math.min(read, lines.length);
    },
  };
  return mirror;
}

function describeRun(path: AgentPath, broken: readonly BrokenInvariant[]): string {
  const lines = [`path: ${path.name}`];
  if (broken.length === 0) lines.push('every invariant held');
  else for (const b of broken) lines.push(`broken: ${b.invariant}: ${b.message}`);
  lines.push('replay it with:', `  await runPath(${formatPath(path).replaceAll('\n', '\n  ')}, makeAgent)`);
  return lines.join('\n');
}

export type { World };
