/**
 * `pnpm bench`: Tiller beside pi 0.73.1, pi-agent-core, the AI SDK's loop and LangGraph on the
 * same conversations. Writes the sessions into bench/.sessions/ (git-ignored), times opening,
 * resuming, the context and compaction preparation in a process per size, the costs that must
 * stay flat (core `step`, replay, the boundary decision) for all sizes in one process, probes
 * memory in a fresh process per side and size, times the overhead per model call of every loop in
 * a process per history length, then the scale rows (1,000 agents, streaming, bytes per turn),
 * writes bench/RESULTS.md and copies it into docs/performance.md's latest results.
 *
 * The Restate row (a durable turn per tool round, beside the in-process shell) comes from
 * `packages/restate/bench/durable-bench.ts --json`. LangGraph's SQLite checkpointer is an optional
 * dependency: where it is missing or did not build, its rows are left out and the page says why.
 * The log names every step with its wall time; the whole run's budget is `BUDGET_SECONDS`.
 *
 * `pnpm bench --quick` runs the same steps at small sizes, in a minute or two, and only prints
 * the page: a check that the whole pipeline works, not a result.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rm } from 'node:fs/promises';
import { timeLoops, type LoopTimes } from './src/agent-loops-child.js';
import { agentRows } from './src/agent-rows.js';
import { CALLS_PER_TURN } from './src/instant-model.js';
import { LOOP_NAMES, type LoopId } from './src/loops.js';
import { median } from './src/median.js';
import type { Measurement, OperationId } from './src/measurement.js';
import { withLatestResults } from './src/latest-results.js';
import { resultsMarkdown } from './src/results-markdown.js';
import { writeSessions } from './src/sessions.js';
import { sourceSession } from './src/source-session.js';
import { sqliteCheckpointing, sqliteNote } from './src/sqlite-checkpointer.js';
import { stepTimer, stepTimesReport } from './src/step-times.js';

const here = dirname(fileURLToPath(import.meta.url));
const quick = process.argv.includes('--quick');
const SIZES = quick ? [2_000] : [10_000, 100_000];
/** History lengths, in messages, for the overhead per model call. */
const AGENT_SIZES = quick ? [0, 200] : [0, 1_000, 10_000, 100_000];
/** A loop that takes longer than this per model call at a history length is stopped there (and not run at longer ones). */
const CALL_LIMIT_MS = 3_000;
/** The loops timed beside Tiller's memory session in the peers' process, and beside its durable one. */
const PEERS: LoopId[] = ['ai-sdk', 'langgraph', 'langgraph-memory'];
const sqlite = await sqliteCheckpointing();
const DURABLE_PEERS: LoopId[] = sqlite.available ? ['langgraph-sqlite'] : [];
/** The scale rows: this many agents in one process, each this many turns, each loop this many times (taking turns). */
const FLEET = quick ? { agents: 50, turns: 2, rounds: 1 } : { agents: 1_000, turns: 3, rounds: 3 };
const FLEET_PEERS: LoopId[] = ['pi-agent-core', 'ai-sdk'];
/** Text deltas in the one streamed answer of the streaming row. */
const STREAM_DELTAS = quick ? 200 : 2_000;
/** History lengths, in messages, for the bytes written per turn. */
const BYTES_SIZES = quick ? [200] : [1_000, 10_000];
const MEMORY_SIZES = new Set(quick ? [2_000] : [10_000, 100_000]);
/** Turns on Restate for the durable row (the in-process shell runs four times as many). */
const RESTATE_RUNS = quick ? 3 : 15;
/** The whole `pnpm bench` on two cores, seconds (docs/performance.md, "Time"). */
const BUDGET_SECONDS = 600;

/** Runs a bench script (in bench/src, unless the path is absolute) in a child process (the same tsx loader) and parses what it prints. */
function child<T>(script: string, args: readonly string[], nodeFlags: readonly string[] = [], env?: NodeJS.ProcessEnv): T {
  const out = execFileSync(process.execPath, [...process.execArgv, ...nodeFlags, isAbsolute(script) ? script : join(here, 'src', script), ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 16 * 1024 * 1024,
    ...(env ? { env: { ...process.env, ...env } } : {}),
  });
  return JSON.parse(out) as T;
}

const began = performance.now();
const log = (text: string) => process.stderr.write(`${text}\n`);
const { step, steps } = stepTimer(log);
const source = sourceSession();
const notes: string[] = [];
if (source.note) notes.push(source.note);
if (!sqlite.available) notes.push(sqliteNote(sqlite.reason));
for (const note of notes) log(`note: ${note}`);
const sessions = await step('writing sessions', () => writeSessions(join(here, '.sessions'), SIZES, source.lines));
const rows: Measurement[] = [];
for (const session of sessions) {
  rows.push(...(await step(`timing ${session.size} entries`, () => child<Measurement[]>('measure-session.ts', [JSON.stringify(session)], ['--expose-gc']))));
  if (!MEMORY_SIZES.has(session.size)) continue;
  await step(`memory at ${session.size} entries`, () => {
    const probe = (side: string, file: string) => child<{ peakMB: number; heldMB: number }>('probe-memory.ts', [side, file], ['--expose-gc']);
    const tiller = probe('tiller', session.tillerFile);
    const pi = probe('pi', session.piFile);
    rows.push(
      { operation: 'memory-open', size: session.size, unit: 'MB', tiller: tiller.peakMB, reference: { name: 'pi', value: pi.peakMB } },
      { operation: 'memory-held', size: session.size, unit: 'MB', tiller: tiller.heldMB, reference: { name: 'pi', value: pi.heldMB } },
    );
  });
}

rows.push(...(await step('timing the core and the boundary decision at every size', () => child<Measurement[]>('measure-core.ts', [JSON.stringify(sessions)]))));

const agentsDir = join(here, '.sessions', 'agents');
/** Loops stopped at the limit at a shorter history: over it at every longer one too, not run again. */
const overLimit = new Set<LoopId>();
async function timeAt(size: number, loops: LoopId[], needed?: LoopId): Promise<LoopTimes> {
  const run = loops.filter((id) => !overLimit.has(id));
  const times = await timeLoops(size, run, agentsDir, CALL_LIMIT_MS, needed);
  for (const id of times.overLimit) overLimit.add(id);
  await rm(agentsDir, { recursive: true, force: true });
  return times;
}
/**
 * `subject` beside `peer` in a process of their own. A peer over the limit, there or at a shorter
 * history, is shown over it beside the subject's figure from `fallback` (another process at this length).
 */
async function besidePeer(operation: OperationId, subject: LoopId, peer: LoopId, size: number, fallback: LoopTimes | undefined): Promise<Measurement[]> {
  const times = overLimit.has(peer) ? undefined : await step(`timing ${LOOP_NAMES[subject]} beside ${LOOP_NAMES[peer]} over ${size} messages`, () => timeAt(size, [subject, peer], peer));
  const measured = times?.perCallMs[subject] !== undefined ? times : (fallback ?? times);
  return measured ? agentRows(operation, subject, [peer], size, measured, CALL_LIMIT_MS) : [];
}
for (const size of AGENT_SIZES) {
  // Beside pi-agent-core, and beside itself over an empty history (which over 0 messages it is).
  const alone = await step(`timing the shell per model call beside pi-agent-core over ${size} messages`, () =>
    timeAt(size, size > 0 ? ['tiller', 'tiller-empty', 'pi-agent-core'] : ['tiller', 'pi-agent-core']),
  );
  rows.push(...agentRows('agent-call', 'tiller', ['pi-agent-core'], size, alone, CALL_LIMIT_MS));
  if (size > 0) rows.push(...agentRows('agent-call-flat', 'tiller', ['tiller-empty'], size, alone, CALL_LIMIT_MS));
  rows.push(...agentRows('agent-first-turn', 'tiller', ['pi-agent-core'], size, alone, CALL_LIMIT_MS * CALLS_PER_TURN, 'firstTurnMs'));
  // Each peer beside Tiller in a process of its own: the AI SDK's loop and the checkpointers leave
  // much garbage, and in one process with all of them the loop that ran next paid for it. A peer
  // over the limit is shown over it beside Tiller's figure from the process beside pi-agent-core.
  for (const peer of PEERS) rows.push(...(await besidePeer('agent-call-peers', 'tiller', peer, size, alone)));
  // The durable agent the same way: beside its twin over an empty session file in one process
  // (beside a peer whose calls take a second, a process has time for five rounds), beside its peer in another.
  const twin = size > 0 ? await step(`timing the durable agent over ${size} messages beside the same over an empty history`, () => timeAt(size, ['tiller-jsonl', 'tiller-jsonl-empty'])) : undefined;
  if (twin) rows.push(...agentRows('agent-call-durable-flat', 'tiller-jsonl', ['tiller-jsonl-empty'], size, twin, CALL_LIMIT_MS));
  for (const peer of DURABLE_PEERS) rows.push(...(await besidePeer('agent-call-durable', 'tiller-jsonl', peer, size, twin)));
  if (DURABLE_PEERS.length === 0) {
    const alone = twin ?? (await step(`timing the durable agent over ${size} messages`, () => timeAt(size, ['tiller-jsonl'])));
    rows.push(...agentRows('agent-call-durable', 'tiller-jsonl', [], size, alone, CALL_LIMIT_MS));
  }
}

const fleets = new Map<LoopId, { turnsPerSecond: number; heapPerAgentKB: number }[]>();
await step(`${FLEET.agents} agents in one process, ${FLEET.turns} turns each, ${FLEET.rounds} rounds`, () => {
  for (let round = 0; round < FLEET.rounds; round++) {
    for (const id of ['tiller', ...FLEET_PEERS] as LoopId[]) {
      const result = child<{ turnsPerSecond: number; heapPerAgentKB: number }>('measure-scale.ts', [id, String(FLEET.agents), String(FLEET.turns)], ['--expose-gc']);
      fleets.set(id, [...(fleets.get(id) ?? []), result]);
    }
  }
});
const fleetMedian = (id: LoopId, key: 'turnsPerSecond' | 'heapPerAgentKB') => median((fleets.get(id) ?? []).map((r) => r[key]));
for (const peer of FLEET_PEERS) {
  const name = LOOP_NAMES[peer];
  rows.push(
    { operation: 'agents-throughput', size: FLEET.agents, unit: 'turns/s', tiller: fleetMedian('tiller', 'turnsPerSecond'), reference: { name, value: fleetMedian(peer, 'turnsPerSecond') } },
    { operation: 'agents-memory', size: FLEET.agents, unit: 'KB', tiller: fleetMedian('tiller', 'heapPerAgentKB'), reference: { name, value: fleetMedian(peer, 'heapPerAgentKB') } },
  );
}

rows.push(await step('streaming text deltas', () => child<Measurement>('measure-stream.ts', [String(STREAM_DELTAS)])));

for (const size of BYTES_SIZES) {
  rows.push(...(await step(`bytes written per turn over ${size} messages`, () => child<Measurement[]>('measure-bytes.ts', [String(size), join(here, '.sessions', 'bytes')]))));
}

await step(`a durable turn on Restate beside the in-process shell, ${RESTATE_RUNS} turns`, () => {
  try {
    const durable = child<{ rounds: number; restateMsPerRound: number; shellMsPerRound: number }>(
      join(here, '..', 'packages', 'restate', 'bench', 'durable-bench.ts'),
      ['--json'],
      [],
      { RESTATE_LOGGING: 'WARN', DURABLE_BENCH_RUNS: String(RESTATE_RUNS) },
    );
    rows.push({ operation: 'restate-round', size: durable.rounds, unit: 'ms', tiller: durable.restateMsPerRound, reference: { name: 'the in-process shell', value: durable.shellMsPerRound } });
  } catch (error) {
    // The Restate server is a binary from its npm package, per platform: where it cannot start, the row is left out, not the page.
    const note = `the Restate row is left out: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
    notes.push(note);
    log(`note: ${note}`);
  }
});

const seconds = (performance.now() - began) / 1000;
for (const line of stepTimesReport(steps, seconds, BUDGET_SECONDS)) log(line);
const markdown = resultsMarkdown(rows, {
  date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
  versions: ['pi 0.73.1', 'pi-agent-core 0.73.1', 'ai 6.0.326', '@langchain/langgraph 1.7.3', 'xstate 5.33.3', '@restatedev/restate-server 1.7.12', `Node ${process.versions.node}`],
  sizes: [...new Set([...sessions.map((s) => s.size), ...AGENT_SIZES.filter((n) => n > 0)])].sort((a, b) => a - b),
  source: source.description,
  notes,
  seconds,
});
if (!quick) {
  writeFileSync(join(here, 'RESULTS.md'), markdown);
  const performancePage = join(here, '..', 'docs', 'performance.md');
  writeFileSync(performancePage, withLatestResults(readFileSync(performancePage, 'utf8'), markdown));
}
process.stdout.write(markdown);
