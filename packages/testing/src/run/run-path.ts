import { NoOpCompactor } from '@tiller/compaction';
import type { TurnOutcome, TurnSnapshot } from '@tiller/core';
import { createSessionLog } from '@tiller/session';
import { createAgent, memoryJournal, resumeAgent, type AgentEvent, type AgentOptions, type JournalLine, type JournalStore } from '@tiller/shell';
import { z } from 'zod';
import { checkOptions, nonnegativeInt, positiveInt } from '../check-options.js';
import { checkPathRetries, checkPathTools, parsePath } from '../parse-path.js';
import { stepLabel, type AgentPath } from '../path-step.js';
import { stateName } from '../turn-graph.js';
import { actOn, type ActingRun } from './act-on-step.js';
import { checkMade, checkMakeAgent, checkTools } from './check-made.js';
import { describeRun } from './describe-run.js';
import { DurableStore } from './durable-store.js';
import { checkInvariants, INVARIANTS, type UserInvariant } from './invariants.js';
import { hostView } from './host-view.js';
import { journalMirror } from './journal-mirror.js';
import { parkAt } from './park-at-step.js';
import type { MakeAgent, PathRun, RunPathOptions } from './path-run.js';
import { Deviation, waiter } from './run-context.js';
import { INPUT_OF } from './step-inputs.js';
import { checkUserInvariants } from './user-invariants.js';
import { toolWatcher } from './watched-tools.js';
import { createWorld, type World } from './world.js';

export type { AgentUnderTest, AgentWorld, MakeAgent, PathRun, RunPathOptions } from './path-run.js';

const RunPathOptionsSchema = z.strictObject({
  invariants: z
    .array(
      z.custom<UserInvariant>((value) => typeof (value as UserInvariant | undefined)?.name === 'string' && typeof (value as UserInvariant).check === 'function', {
        message: 'expected an invariant {name, check(run)}',
      }),
    )
    // A run's broken invariants, and toHold, go by name: one name, one invariant.
    .superRefine((invariants, ctx) => {
      const seen = new Set<string>();
      for (const [i, { name }] of invariants.entries()) {
        if (Object.hasOwn(INVARIANTS, name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `the invariant ${JSON.stringify(name)} is one of Tiller's; give yours a name of its own` });
        else if (seen.has(name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `two invariants are named ${JSON.stringify(name)}` });
        seen.add(name);
      }
    })
    .optional(),
  stepTimeoutMs: positiveInt.optional(),
  toolTimeoutMs: positiveInt.optional(),
  approvalTimeoutMs: positiveInt.optional(),
  abortGraceMs: nonnegativeInt.optional(),
});

/**
 * Builds the agent with the world's model and drives it through the real shell along the path:
 * each step waits until the agent waits where the step applies, acts (a host call, the model's
 * answer, the tools' outcome, a decision, a crash and resume), and checks that the turn went
 * where the path says. Then checks every invariant over what happened.
 */
export async function runPath(script: AgentPath | string, makeAgent: MakeAgent, options: RunPathOptions = {}): Promise<PathRun> {
  checkOptions('runPath', RunPathOptionsSchema, options);
  const path = parsePath(script);
  const world = createWorld();
  const watched = toolWatcher(world);
  checkMakeAgent(makeAgent);
  const made = checkMade(
    makeAgent({
      tools: (tools) => {
        checkTools(tools, 'world.tools');
        return tools.map((t) => watched(t)) as never;
      },
    }),
  );
  const { host, ...agentOptions } = made;
  // The shell's default is three retries (docs/shell.md).
  const maxRetries = agentOptions.limits?.maxRetries ?? 3;
  world.attemptsBeforeGivingUp = maxRetries + 1;
  const base = agentOptionsFor(path, agentOptions, world, watched, options);
  checkPathTools('runPath', path, base.tools.map((t) => t.name));
  // A maxRetries that is no count is createAgent's to refuse, naming it.
  if (typeof maxRetries === 'number') checkPathRetries('runPath', path, maxRetries);

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
  const mirror = journalMirror(() => session);
  const inputs = () => mirror.advance(journal.lines);
  world.attach({ agent, store, inputs: () => mirror.inputCount });
  host?.(hostView(agent, world, 1, (m) => misuse.push(m)));

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
  const run: ActingRun = {
    get agent() {
      return agent;
    },
    world,
    mirror,
    inputs,
    waitUntil: waiter(() => agent, options.stepTimeoutMs ?? 2_000, (a) => stateName(a.snapshot.value)),
    path,
    outcomes,
    deviations,
    crash,
  };

  let expected = 0;
  try {
    for (const [index, { step, state }] of path.steps.entries()) {
      const where = `step ${index + 1} (${stepLabel(step)})`;
      try {
        await parkAt(run, step);
        await actOn(run, step, index);
        const input = INPUT_OF[step.do];
        if (input === null) continue;
        expected += 1;
        await run.waitUntil(() => inputs() >= expected, `the ${input} input`);
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

  const facts: Omit<PathRun, 'passed' | 'broken' | 'report'> = {
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
    tools: base.tools,
    invariants: [...Object.keys(INVARIANTS), ...(options.invariants ?? []).map((i) => i.name)],
  };
  const broken = [
    ...deviations.map((message) => ({ invariant: 'follows-path', message })),
    ...checkInvariants(facts, { world, store, misuse, boundaryProblems: mirror.boundaryProblems, finalGeneration: world.generation }),
  ];
  broken.push(...checkUserInvariants(facts, broken, options.invariants ?? []));
  return { ...facts, passed: broken.length === 0, broken, report: () => describeRun(path, broken) };
}

/**
 * The agent's options for this path: the world's model, the user's tools watched (with the
 * path's time limit where a tool times out), the compactor wrapped so the world can hold it, and
 * limits that fit the path (its iterations, no waiting between retries, a short approval limit
 * where an approval times out).
 */
function agentOptionsFor(path: AgentPath, agentOptions: Omit<AgentOptions, 'model' | 'session' | 'journal'>, world: World, watched: ReturnType<typeof toolWatcher>, options: RunPathOptions) {
  const timesOut = path.steps.some((s) => s.step.do === 'tools' && s.step.outcome === 'timeout');
  const approvalTimesOut = path.steps.some((s) => s.step.do === 'approve' && s.step.decision === 'timeout');
  const tools = (agentOptions.tools ?? []).map((t) => {
    const w = watched(t);
    return timesOut ? { ...w, timeoutMs: options.toolTimeoutMs ?? 40 } : w;
  });
  return {
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
}

export type { World };
