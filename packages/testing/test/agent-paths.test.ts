import { describe, expect, it } from 'vitest';
import '../src/vitest.js';
import { agentPaths, assertFullCoverage, coverage, formatPath, parsePath, reachableByTheWorld, runPath, scriptedModel, type AgentWorld, type MakeAgent, type PathRun } from '../src/index.js';
import { notebookAgent, notebookPathOptions, writesLandOnce } from './agents/notebook-agent.js';

const paths = agentPaths(notebookPathOptions());
const runs: PathRun[] = [];

describe('a correct agent, along every generated path', () => {
  it('generates a few hundred paths with readable, unique names', () => {
    expect(paths.length).toBeGreaterThan(200);
    expect(new Set(paths.map((p) => p.name)).size).toBe(paths.length);
    expect(paths.map((p) => p.name)).toContain('prompt > boundary > reply:text');
    // Every kind of step the world can take is in some path.
    const labels = new Set(paths.flatMap((p) => p.name.split(' > ')));
    for (const label of [
      'steer',
      'follow_up',
      'abort',
      'crash',
      'policy_asks',
      'approve:allow',
      'approve:deny',
      'approve:timeout',
      'tools:ok',
      'tools:throw',
      'tools:timeout',
      'fail:transient',
      'fail:overflow',
      'fail:fatal',
      'reply:error',
      'reply:aborted',
      'reply:tool_call(read_note)',
      'reply:tool_call(write_note)',
      'reply:tool_call(delete_note)',
      'reply:parallel_tool_calls(read_note,read_note)',
    ]) {
      expect(labels, label).toContain(label);
    }
    for (const fault of ['transient+', 'rate_limited+']) expect([...labels].some((l) => l.startsWith(`${fault}reply:`)), fault).toBe(true);
  });

  it.each(paths.named())('%s', async (_name, path) => {
    const notebook = new Map<string, string[]>();
    const run = await runPath(path, notebookAgent(notebook), { invariants: [writesLandOnce(notebook)] });
    runs.push(run);
    expect(run).toHoldEveryInvariant();
  });

  it('covers every state and every transition the world can make the turn take', () => {
    expect(runs).toHaveLength(paths.length);
    const report = assertFullCoverage(runs);
    expect(report.ratio).toBe(1);
    expect(report.transitions.covered.length).toBe(reachableByTheWorld().transitions.length);
    expect(report.states.covered).toContain('turn.tools.awaitingApproval');
  });
});

describe('a path is a script', () => {
  it('prints as a script that runs again to the same journal', async () => {
    const path = paths.find((p) => p.name.includes('crash') && p.name.includes('approve:allow'))!;
    const script = formatPath(path);
    expect(parsePath(script)).toEqual(path);
    const first = await runPath(path, notebookAgent());
    const again = await runPath(script, notebookAgent());
    const shape = (run: PathRun) => run.journal.flatMap((l) => (l.type === 'input' ? [l.input.type] : [l.type]));
    expect(shape(again)).toEqual(shape(first));
    expect(again.states).toEqual(first.states);
  });

  it('refuses a broken script, saying what is wrong', () => {
    expect(() => parsePath('{"steps": []}')).toThrow(/no iterations/);
    expect(() => parsePath({ name: 'x', iterations: 1, steps: [{ step: { do: 'dance' }, state: 'idle' }] } as never)).toThrow(/step 1 is malformed: "dance" is not a step/);
  });

  it('refuses a script that calls a tool the agent does not have, before anything runs', async () => {
    const path = paths.find((p) => p.name === 'prompt > boundary > reply:tool_call(read_note) > tools:ok > boundary > reply:text')!;
    const script = JSON.parse(formatPath(path)) as typeof path;
    const reply = script.steps.find((s) => s.step.do === 'reply' && s.step.calls.length > 0)!;
    if (reply.step.do === 'reply') reply.step.calls[0]!.tool = 'no_such_tool';
    const index = script.steps.indexOf(reply) + 1;
    let made = 0;
    const agent = notebookAgent();
    await expect(runPath(script, (world) => (made++, agent(world)))).rejects.toThrow(
      new RegExp(`runPath: step ${index} \\(reply\\) calls tool "no_such_tool", which the agent does not have \\(its tools: read_note, write_note, delete_note\\)`),
    );
    expect(made).toBe(1);
  });

  it('refuses what makeAgent returns when it is not the options, naming what it got', async () => {
    const path = paths.find((p) => p.name === 'prompt > boundary > reply:tool_call(read_note) > tools:ok > boundary > reply:text')!;
    const agent = notebookAgent();
    const cases: Array<[string, MakeAgent, RegExp]> = [
      // An async makeAgent gave "calls tool read_note, which the agent does not have (its tools: none)".
      ['a Promise', (async (world: AgentWorld) => agent(world)) as never, /^runPath: makeAgent returned a Promise; return createAgent's options themselves \(makeAgent is called synchronously, once per run\)$/],
      // Nothing at all gave "Cannot destructure property 'host' of 'made' as it is undefined".
      ['nothing', (() => undefined) as never, /^runPath: makeAgent must return createAgent's options \(an object\), got undefined$/],
      ['null', (() => null) as never, /^runPath: makeAgent must return createAgent's options \(an object\), got null$/],
      // A model of one's own was replaced by the world's without a word.
      ['a model', ((world: AgentWorld) => ({ ...agent(world), model: scriptedModel([{ text: 'mine' }]) })) as never, /^runPath: makeAgent returned model; the run gives the model, the session and the journal, so leave them out$/],
      ['a session and a journal', ((world: AgentWorld) => ({ ...agent(world), session: {}, journal: {} })) as never, /^runPath: makeAgent returned session, journal; the run gives the model/],
    ];
    for (const [what, make, said] of cases) {
      const error = await runPath(path, make).catch((e: unknown) => e);
      expect(error, what).toBeInstanceOf(TypeError);
      expect((error as Error).message, what).toMatch(said);
    }
    // Left undefined, as options spread from a shared object may have them, they give nothing: the run goes on.
    const spread = ((world: AgentWorld) => ({ ...agent(world), model: undefined, session: undefined, journal: undefined })) as never;
    expect(await runPath(path, spread)).toHoldEveryInvariant();
  });

  it('reports coverage short of complete when the paths leave states out', async () => {
    const few = agentPaths({ ...notebookPathOptions(), policy: {}, hostActions: false, crashes: false }).slice(0, 5);
    const some: PathRun[] = [];
    const allowAll = (world: Parameters<ReturnType<typeof notebookAgent>>[0]) => ({ ...notebookAgent()(world), policy: () => ({ decision: 'allow' as const }) });
    for (const p of few) some.push(await runPath(p, allowAll));
    expect(some.every((r) => r.passed)).toBe(true);
    const report = coverage(some);
    expect(report.complete).toBe(false);
    expect(report.states.missing).toContain('turn.tools.awaitingApproval');
    expect(() => assertFullCoverage(some)).toThrow(/missing state turn.tools.awaitingApproval/);
  });
});
