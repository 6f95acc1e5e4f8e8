import fc from 'fast-check';
import type { Tool } from '@tiller/shell';
import { z } from 'zod';
import { checkOptions, positiveInt } from './check-options.js';
import { pathName, stepLabel, type AgentPath, type CallClass, type PathStep, type PlannedCall, type RetriedFault, type ScriptedStep } from './path-step.js';
import { schemaArbitrary } from './schema-arbitrary.js';
import { graphPaths, type GraphOptions, type GraphPath, type GraphStep } from './turn-graph.js';

/** The faults a path can hold, by name. */
export type PathFault =
  | 'transient'
  | 'rate_limited'
  | 'transient_exhausted'
  | 'overflow'
  | 'fatal'
  | 'error_reply'
  | 'aborted_stream'
  | 'tool_throw'
  | 'tool_timeout'
  | 'approval_timeout';

export const PATH_FAULTS: readonly PathFault[] = [
  'transient',
  'rate_limited',
  'transient_exhausted',
  'overflow',
  'fatal',
  'error_reply',
  'aborted_stream',
  'tool_throw',
  'tool_timeout',
  'approval_timeout',
];

export interface AgentPathsOptions {
  /** The agent's tools: generated calls use them, with arguments drawn from their input schemas. */
  tools?: readonly Tool[];
  /**
   * What the agent's policy says about each tool, by name: `allow` (the default), `ask` (the host
   * must approve) or `deny`. Paths with approvals need a tool that asks.
   */
  policy?: Readonly<Record<string, CallClass>>;
  /** Arguments for a tool's calls, by tool name, instead of drawing them from its schema. */
  arbitraries?: Readonly<Record<string, fc.Arbitrary<Record<string, unknown>>>>;
  /** Model calls with tools per turn; the runs set the agent's `limits.maxIterations` to it. Default 1. */
  iterations?: number;
  /**
   * The longest path, in steps (a crash step comes on top). Default 14. At least the length of
   * the shortest story the turn can tell (3 with the default graph: prompt, boundary, a reply
   * without tools): a shorter one would leave no story whole, so it is refused.
   */
  maxLength?: number;
  /** The faults paths may hold. Default: all of them (`PATH_FAULTS`). */
  faults?: readonly PathFault[];
  /** Host actions (steer, follow-up, abort) at every point where the turn waits. Default true. */
  hostActions?: boolean;
  /** A crash, then a resume from the journal, after every step of every story. Default true. */
  crashes?: boolean;
  /**
   * Every simple story through the graph (thousands with a few tools), instead of the fewest
   * stories that take every move the world can make at least once. Default false.
   */
  exhaustive?: boolean;
  /** The seed of the drawn arguments (the same seed gives the same paths). Default 1. */
  seed?: number;
}

/** A path for vitest's `describe.each` / `it.each`: `[name, path]`. */
export type NamedPath = [name: string, path: AgentPath];

export interface AgentPaths extends Array<AgentPath> {
  /** `[name, path]` pairs for `it.each(paths.named())('%s', ...)`. */
  named(): NamedPath[];
}

const AgentPathsOptions = z.strictObject({
  tools: z.array(z.custom<Tool>((value) => (value as Tool | undefined)?.kind === 'tiller.tool', { message: 'expected a tool made by defineTool' })).optional(),
  policy: z.record(z.string(), z.enum(['allow', 'ask', 'deny'])).optional(),
  arbitraries: z.record(z.string(), z.custom<fc.Arbitrary<Record<string, unknown>>>((value) => value instanceof fc.Arbitrary, { message: 'expected a fast-check arbitrary' })).optional(),
  iterations: z.number().int().nonnegative().optional(),
  maxLength: positiveInt.optional(),
  faults: z.array(z.enum(PATH_FAULTS as unknown as [PathFault, ...PathFault[]])).optional(),
  hostActions: z.boolean().optional(),
  crashes: z.boolean().optional(),
  exhaustive: z.boolean().optional(),
  seed: z.number().int().nonnegative().optional(),
});

/**
 * Paths through the turn machine, generated from its graph, each a script of what the world does
 * to the agent: every story the turn can tell (prompt to end through replies, tool rounds,
 * approvals and failures), then every branch the world can make the turn take (host actions at
 * each waiting point, faults, outcomes), each story again with the model's retried faults, and
 * each story with a crash and resume after every step.
 */
export function agentPaths(options: AgentPathsOptions = {}): AgentPaths {
  checkOptions('agentPaths', AgentPathsOptions, options);
  const iterations = options.iterations ?? 1;
  const maxLength = options.maxLength ?? 14;
  const faults = new Set(options.faults ?? PATH_FAULTS);
  const unknownFault = [...faults].find((f) => !PATH_FAULTS.includes(f));
  if (unknownFault) throw new TypeError(`agentPaths: unknown fault "${unknownFault}"; the faults are ${PATH_FAULTS.join(', ')}`);
  if (!Number.isInteger(iterations) || iterations < 0) throw new TypeError(`agentPaths: iterations must be a whole number of model calls, got ${iterations}`);
  const tools = options.tools ?? [];
  const policy = options.policy ?? {};
  // A name that matches no tool is a typo: ignoring it would test something else than asked.
  for (const [option, byTool] of [['policy', policy], ['arbitraries', options.arbitraries ?? {}]] as const) {
    for (const name of Object.keys(byTool)) {
      if (!tools.some((t) => t.name === name)) throw new TypeError(`agentPaths: ${option} names tool "${name}", which is not among the tools (${tools.map((t) => t.name).join(', ') || 'none'})`);
    }
  }
  const byClass = new Map<CallClass, Tool[]>();
  for (const tool of tools) {
    const c = policy[tool.name] ?? 'allow';
    byClass.set(c, [...(byClass.get(c) ?? []), tool]);
  }
  const graph: GraphOptions = {
    classes: new Set(byClass.keys()),
    hostActions: options.hostActions ?? true,
    failures: { transient: faults.has('transient_exhausted'), overflow: faults.has('overflow'), fatal: faults.has('fatal') },
    replies: { error: faults.has('error_reply'), aborted: faults.has('aborted_stream') },
    toolFaults: { throw: faults.has('tool_throw'), timeout: faults.has('tool_timeout') },
    approvalTimeout: faults.has('approval_timeout'),
  };

  // Whole stories: the graph's simple paths hold their prefixes too.
  const wholeStories = maximal(graphPaths('stories', iterations, graph).filter((p) => p.steps.length > 0));
  checkRoomForAStory(wholeStories, maxLength);
  const allStories = wholeStories.filter((p) => p.steps.length <= maxLength);
  const stories = options.exhaustive ? allStories : covering(allStories);
  const branches = graphPaths('transitions', iterations, graph).filter((p) => p.steps.length <= maxLength);
  const retried = (['transient', 'rate_limited'] as const).filter((f) => faults.has(f));
  const withRetries = retried.flatMap((fault) => stories.map((p) => withRetriedFault(p, fault)));
  const crashes = options.crashes === false ? [] : stories.flatMap((p) => p.steps.map((_, k) => withCrash(p, k + 1)));

  const draw = callDrawer(byClass, options.arbitraries ?? {}, options.seed ?? 1);
  const seen = new Set<string>();
  const paths: AgentPath[] = [];
  for (const graphPath of [...stories, ...branches, ...withRetries, ...crashes]) {
    if (graphPath.steps.length > maxLength + 1) continue;
    const steps = graphPath.steps.map(({ step, state }, i): ScriptedStep => ({ step: concrete(step, (c, j) => draw(c, paths.length, i, j)), state }));
    const name = pathName(steps);
    if (seen.has(name)) continue;
    seen.add(name);
    paths.push({ name, iterations, steps });
  }
  return Object.assign(paths, { named: () => paths.map((p): NamedPath => [p.name, p]) });
}

/** A `maxLength` below the shortest story would silently give no whole story (or no path at all). */
function checkRoomForAStory(stories: readonly GraphPath[], maxLength: number): void {
  const shortest = stories.reduce<GraphPath | undefined>((a, b) => (a && a.steps.length <= b.steps.length ? a : b), undefined);
  if (!shortest || maxLength >= shortest.steps.length) return;
  const name = shortest.steps.map(({ step }) => stepLabel(concrete(step, (c) => ({ tool: c, args: {} })))).join(' > ');
  const length = shortest.steps.length;
  throw new TypeError(`agentPaths: maxLength ${maxLength} is shorter than the shortest story (${length} steps: ${name}): no story would be generated whole; give at least ${length}`);
}

/**
 * The fewest stories (greedily, longest first) that take every move from every state the stories
 * take: each move is then seen in a whole story, crashed after, and faulted.
 */
function covering(stories: GraphPath[]): GraphPath[] {
  const edges = (p: GraphPath) => p.steps.map((s, i) => `${p.steps[i - 1]?.state ?? 'start'} ${JSON.stringify(s.step)}`);
  const covered = new Set<string>();
  const chosen: GraphPath[] = [];
  for (const story of [...stories].sort((a, b) => b.steps.length - a.steps.length)) {
    const fresh = edges(story).filter((e) => !covered.has(e));
    if (fresh.length === 0) continue;
    for (const e of fresh) covered.add(e);
    chosen.push(story);
  }
  return chosen;
}

/** Drops the paths that are a prefix of another: a crash or a fault on the longer one covers them. */
function maximal(paths: GraphPath[]): GraphPath[] {
  const keys = paths.map((p) => p.steps.map((s) => JSON.stringify(s.step)).join('>'));
  return paths.filter((_, i) => !keys.some((other, j) => j !== i && other.length > keys[i]!.length && other.startsWith(`${keys[i]}>`)));
}

function withRetriedFault(path: GraphPath, fault: RetriedFault): GraphPath {
  const first = path.steps.findIndex((s) => s.step.do === 'reply');
  if (first < 0) return path;
  return {
    steps: path.steps.map((s, i) => (i === first && s.step.do === 'reply' ? { ...s, step: { ...s.step, retried: [fault] } } : s)),
  };
}

/** A crash after step `k` (the state stays what it was). */
function withCrash(path: GraphPath, k: number): GraphPath {
  const before = path.steps[k - 1]!;
  return { steps: [...path.steps.slice(0, k), { step: { do: 'crash' }, state: before.state }, ...path.steps.slice(k)] };
}

function concrete(step: GraphStep, call: (c: CallClass, j: number) => PlannedCall): PathStep {
  if (step.do !== 'reply') return step;
  return { do: 'reply', reply: step.reply, calls: step.classes.map((c, j) => call(c, j)), retried: step.retried ?? [] };
}

/**
 * Picks the tool of each generated call (cycling through the tools of its class, so every tool is
 * called across the paths) and draws its arguments, seeded by where the call is.
 */
function callDrawer(byClass: Map<CallClass, Tool[]>, arbitraries: Readonly<Record<string, fc.Arbitrary<Record<string, unknown>>>>, seed: number) {
  const arbitraryOf = new Map<string, fc.Arbitrary<unknown>>();
  const counters = new Map<CallClass, number>();
  return (c: CallClass, pathIndex: number, stepIndex: number, callIndex: number): PlannedCall => {
    const candidates = byClass.get(c)!;
    const turn = counters.get(c) ?? 0;
    counters.set(c, turn + 1);
    const tool = candidates[turn % candidates.length]!;
    let arbitrary = arbitraryOf.get(tool.name);
    if (!arbitrary) {
      arbitrary = arbitraries[tool.name] ?? schemaArbitrary(tool.input, `the input of tool "${tool.name}"`);
      arbitraryOf.set(tool.name, arbitrary);
    }
    const callSeed = seed * 1_000_003 + pathIndex * 1_009 + stepIndex * 31 + callIndex;
    for (let attempt = 0; attempt < 20; attempt++) {
      const [args] = fc.sample(arbitrary, { numRuns: 1, seed: callSeed + attempt * 7_919 });
      // Drawn from the schema, checked by it: the shell will check the same.
      if (tool.input.safeParse(args).success) return { tool: tool.name, args: args as Record<string, unknown>, policy: c };
    }
    throw new TypeError(`agentPaths: could not draw valid arguments for tool "${tool.name}" from its schema; give an arbitrary (agentPaths({ arbitraries: { ${tool.name}: ... } }))`);
  };
}
