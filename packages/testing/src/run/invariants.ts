import { buildContext, serializeSnapshot } from '@tiller/core';
import { createSessionLog } from '@tiller/session';
import { replayJournal } from '@tiller/shell';
import { plannedCallId } from '../path-step.js';
import { unansweredCalls } from '../transcript.js';
import { DurableStore } from './durable-store.js';
import type { PathRun } from './path-run.js';
import type { World } from './world.js';

/** The invariants every run is checked for, by name (docs/testing.md says what each means). */
export const INVARIANTS = {
  'follows-path': 'the turn went where the path says, step by step',
  'valid-transcript': 'each tool call has exactly one result before the next model call: in every request, at every boundary, in the session',
  'persist-before-blocking': 'the entries a step appended are in the session log before the blocking effect that follows starts',
  'denied-never-runs': 'a call denied by the policy, by the host or by the approval timeout never runs, and no tool runs around the shell',
  'policy-as-declared': "the agent's policy does with each call what agentPaths was told (its `policy` option): a call declared allow runs unasked, one declared ask is asked about, one declared deny is refused unasked and never runs",
  'no-tool-after-abort': 'no tool starts after its turn was aborted, and every running tool stops when its signal aborts',
  'journal-replays': 'the journal replays, with no model and no tool, to the same effects and the same snapshot',
  'no-rerun-after-crash': 'after a crash a call that had started is never run again unless its tool is idempotent, and an idempotent tool run again answers the same',
  'session-reopens': 'the session, reopened from what was written, holds the same entries and gives the same context',
  'host-calls': 'the host never prompts while a turn runs',
  'no-shell-errors': 'the shell reported no error: no compactor threw or broke its contract, no listener threw, the log refused nothing',
} as const;

export type InvariantName = keyof typeof INVARIANTS;

export interface BrokenInvariant {
  /** One of `INVARIANTS`, or the name of your own. */
  invariant: InvariantName | (string & {});
  message: string;
}

/** An invariant of your own: a name, and a check over the run that returns what is wrong (nothing when it holds). */
export interface UserInvariant {
  name: string;
  check(run: PathRun): string | readonly string[] | void | undefined;
}

type RunFacts = Omit<PathRun, 'passed' | 'broken' | 'report'>;

interface Seen {
  world: World;
  store: DurableStore;
  misuse: readonly string[];
  boundaryProblems: readonly string[];
  finalGeneration: number;
}

export function checkInvariants(run: RunFacts, seen: Seen): BrokenInvariant[] {
  const broken: BrokenInvariant[] = [];
  const add = (invariant: InvariantName, message: string) => broken.push({ invariant, message });
  for (const s of seen.world.sightings) add(s.invariant, s.message);
  for (const problem of seen.boundaryProblems) add('valid-transcript', problem);
  for (const problem of unansweredCalls(run.session.context())) add('valid-transcript', `in the session's context: ${problem}`);
  deniedNeverRuns(run, add);
  policyAsDeclared(run, add);
  noToolAfterAbort(run, seen, add);
  journalReplays(run, add);
  noRerunAfterCrash(run, add);
  sessionReopens(run, seen.store, add);
  for (const message of seen.misuse) add('host-calls', message);
  for (const event of run.events) if (event.type === 'shell.error') add('no-shell-errors', `${event.where}: ${event.message}`);
  const missing = run.snapshot.context.entries.toArray().filter((e) => !seen.store.has(e.id));
  if (missing.length > 0) add('persist-before-blocking', `at the end, ${missing.map((e) => e.id).join(', ')} never reached the session log`);
  return broken;
}

type Add = (invariant: InvariantName, message: string) => void;

function inputs(run: RunFacts) {
  return run.journal.flatMap((line) => (line.type === 'input' ? [line.input] : []));
}

function deniedNeverRuns(run: RunFacts, add: Add) {
  const started = new Set(run.journal.flatMap((l) => (l.type === 'tool.started' ? [l.toolCallId] : [])));
  const denied = new Map<string, string>();
  for (const input of inputs(run)) {
    if (input.type !== 'approval.decided') continue;
    for (const d of input.decisions) if (d.decision === 'deny') denied.set(d.toolCallId, d.rationale);
  }
  for (const r of run.toolRuns) {
    const call = r.toolCallId ?? 'no call id';
    if (r.toolCallId !== undefined && denied.has(r.toolCallId)) add('denied-never-runs', `tool ${r.tool} ran for call ${call}, which was denied (${denied.get(r.toolCallId)})`);
    else if (r.toolCallId === undefined || !started.has(r.toolCallId)) {
      add('denied-never-runs', `tool ${r.tool} ran for call ${call} without the shell starting it: something ran it around the policy`);
    }
  }
}

/**
 * Each planned call against what the journal says the agent did with it: asked about (in an
 * `approval.needed` input), refused (a `tool.refused` line), or run (`tool.started`). A refusal
 * counts only when the batch was answered (its `tools.done` applied): a turn aborted while the
 * policy was still deciding has its calls refused by the shell, not by the policy. So a call whose
 * batch never came to a decision (the turn aborted or crashed first) says nothing.
 */
function policyAsDeclared(run: RunFacts, add: Add) {
  const asked = new Set<string>();
  const answered = new Set<string>();
  for (const input of inputs(run)) {
    if (input.type === 'approval.needed') for (const id of input.toolCallIds) asked.add(id);
    if (input.type === 'tools.done') for (const r of input.results) answered.add(r.toolCallId);
  }
  const refusedUnasked = new Map<string, { reason: string; message: string }>();
  const started = new Set<string>();
  for (const line of run.journal) {
    // Refused without being asked, in a batch that was answered: the policy's deny (a denial of an asked call is the host's).
    if (line.type === 'tool.refused' && !asked.has(line.toolCallId) && answered.has(line.toolCallId)) refusedUnasked.set(line.toolCallId, { reason: line.reason, message: line.message });
    if (line.type === 'tool.started') started.add(line.toolCallId);
  }
  const deniedByPolicy = (id: string) => refusedUnasked.get(id)?.reason === 'denied';
  // What the model was told: a policy that threw or answered junk is a denial too, and its message says why.
  const denial = (id: string) => `the agent's policy denied it (${refusedUnasked.get(id)?.message})`;
  run.path.steps.forEach(({ step }, i) => {
    if (step.do !== 'reply') return;
    step.calls.forEach((call, j) => {
      const id = plannedCallId(i, j);
      const said = (what: string) => add('policy-as-declared', `call ${id} of ${call.tool} is declared ${call.policy}, but ${what}`);
      switch (call.policy) {
        case undefined:
          return;
        case 'allow':
          if (asked.has(id)) said("the agent's policy asked about it");
          else if (deniedByPolicy(id)) said(denial(id));
          return;
        case 'ask':
          if (!answered.has(id) || asked.has(id)) return;
          if (started.has(id)) said('the agent ran it without asking');
          else if (deniedByPolicy(id)) said(`${denial(id)} without asking`);
          else said(`the shell refused it without asking (${refusedUnasked.get(id)?.reason ?? 'no refusal recorded'})`);
          return;
        case 'deny':
          if (asked.has(id)) said("the agent's policy asked about it");
          else if (started.has(id)) said('the agent ran it');
          else if (answered.has(id) && !deniedByPolicy(id)) said('the agent did not refuse it as denied');
          return;
        default: {
          const unknown: never = call.policy;
          throw new TypeError(`unknown call policy ${JSON.stringify(unknown)}`);
        }
      }
    });
  });
}

function noToolAfterAbort(run: RunFacts, seen: Seen, add: Add) {
  const all = inputs(run);
  for (const r of run.toolRuns) {
    // The inputs since the turn began, up to where the tool started: an abort among them ended the turn.
    const before = all.slice(0, r.startedAfterInputs);
    const turnStart = before.map((i) => i.type).lastIndexOf('turn.start');
    if (before.slice(turnStart + 1).some((i) => i.type === 'abort')) add('no-tool-after-abort', `tool ${r.tool} (call ${r.toolCallId}) started after its turn was aborted`);
    // A process that crashed is gone, with whatever it was running.
    if (!r.settled && r.generation === seen.finalGeneration) {
      add('no-tool-after-abort', `tool ${r.tool} (call ${r.toolCallId}) was still running after its turn was aborted or closed: it does not stop when its signal aborts`);
    }
  }
}

function journalReplays(run: RunFacts, add: Add) {
  try {
    const replay = replayJournal(run.journal, { session: run.session });
    if (replay.divergence) {
      const d = replay.divergence;
      add('journal-replays', `input ${d.seq} (${d.inputType}) replays to [${d.actual.join('; ')}] where the run had [${d.expected.join('; ')}]`);
    } else if (serializeSnapshot(replay.snapshot) !== serializeSnapshot(run.snapshot)) {
      add('journal-replays', 'the journal replays to a different snapshot than the agent ended with');
    }
  } catch (error) {
    add('journal-replays', `the journal does not replay: ${(error as Error).message}`);
  }
}

function noRerunAfterCrash(run: RunFacts, add: Add) {
  const idempotent = new Set(run.tools.filter((t) => t.idempotent).map((t) => t.name));
  const byCall = new Map<string, typeof run.toolRuns>();
  for (const r of run.toolRuns) if (r.toolCallId !== undefined) byCall.set(r.toolCallId, [...(byCall.get(r.toolCallId) ?? []), r]);
  for (const [id, runs] of byCall) {
    if (runs.length < 2) continue;
    const [first, ...again] = runs as [(typeof runs)[number], ...typeof runs];
    if (!idempotent.has(first.tool)) {
      add('no-rerun-after-crash', `tool ${first.tool} is not idempotent, but call ${id} ran ${runs.length} times (processes ${runs.map((r) => r.generation).join(', ')})`);
      continue;
    }
    for (const later of again) {
      const a = JSON.stringify(first.result ?? first.error ?? null);
      const b = JSON.stringify(later.result ?? later.error ?? null);
      if (first.settled && later.settled && a !== b) {
        add('no-rerun-after-crash', `tool ${first.tool} is marked idempotent, but call ${id} run again after the crash answered differently (first ${a}, again ${b})`);
      }
    }
  }
}

function sessionReopens(run: RunFacts, store: DurableStore, add: Add) {
  const reopened = createSessionLog(new DurableStore(store.lines));
  const live = run.session.path();
  const again = reopened.path();
  if (again.length !== live.length) {
    add('session-reopens', `the session reopens with ${again.length} entries on its path, the agent had ${live.length}`);
    return;
  }
  for (const [i, entry] of live.entries()) {
    const written = JSON.stringify(again[i]);
    const now = JSON.stringify(entry);
    if (written !== now) {
      add('session-reopens', `entry ${entry.id} changed after it was written (written ${written.slice(0, 160)}, now ${now.slice(0, 160)})`);
      return;
    }
  }
  const context = JSON.stringify(buildContext(again));
  if (context !== JSON.stringify(run.snapshot.context.view.toArray())) add('session-reopens', 'the reopened session gives another context than the agent had');
}
