import { type BlockingEffect, type Effect, start, step, type ToolCallPart, type TurnEvent, type TurnEventOf, type TurnOutcome, type TurnSnapshot } from '@tiller/core';
import type { SessionLog } from '@tiller/session';
import type { AgentEvent, AgentListener } from '../agent/agent-event.js';
import type { ResolvedAgentOptions } from '../agent/agent-options.js';
import { now } from '../clock.js';
import type { EffectAnswer, EffectContext } from '../effects/effect-context.js';
import { AgentBrokenError } from '../errors/agent-broken-error.js';
import { journalHeader } from '../journal/journal-header.js';
import type { JournalStore } from '../journal/journal-store.js';
import { JOURNAL_VERSION } from '../journal/journal-format.js';
import { createJournalWriter, type JournalStart, noJournal } from '../journal/journal-writer.js';
import type { Tool } from '../tools/define-tool.js';
import { type AskedBatch, createApprovals } from './approvals.js';
import { createBackgroundWork } from './background-work.js';
import { createPartialReply } from './partial-reply.js';
import { ContextMeter } from './context-meter.js';
import { createEventHub, listenerFailure } from './event-hub.js';
import { createInspection } from './inspection.js';
import { interpret, type Launch } from './interpret.js';
import type { Letter } from './letter.js';
import type { ResumedEffect } from './resumed-effect.js';
import { createMailbox } from './mailbox.js';
import { createOutcomeWaiters } from './outcome-waiters.js';
import { guardPolicy } from './policy-guard.js';
import { sessionClaim } from './session-claim.js';
import { createShutdown, type Shutdown } from './shutdown.js';
import { StartupReport } from './startup-report.js';
import { describeThrown } from '../describe-thrown.js';

export interface RuntimeInit {
  options: ResolvedAgentOptions;
  session: SessionLog;
  /** The journal and where its writing starts; undefined when the agent keeps none. */
  journal: { store: JournalStore; start: JournalStart } | undefined;
  snapshot: TurnSnapshot;
  entryPoint: 'createAgent' | 'resumeAgent';
}

/**
 * Methods only, no accessors: an object literal with a getter is a dictionary in V8, several
 * hundred bytes an agent (the current state is read with `getSnapshot`, as of an XState actor).
 */
export interface TurnRuntime extends Pick<Shutdown, 'close' | 'keepAndClose'> {
  getSnapshot(): TurnSnapshot;
  /** Why the agent stopped, once it has. */
  brokenBy(): AgentBrokenError | null;
  /** Feeds one input to the core and carries out its effects; resolves once it is applied, with the effects its step gave. */
  feed(input: TurnEvent): Promise<readonly Effect[]>;
  /** Takes the session log for a turn; throws `SessionBusyError` while another agent's turn runs on it. */
  claimSession(method: string): void;
  /**
   * Whether a turn of this agent is open: from its `prompt` until its `turn.ended` is told, which
   * comes after its last entries reached the log (the snapshot shows no turn while they are written).
   */
  turnOpen(): boolean;
  /**
   * Starts the turn: the log's read warnings go out before the first turn; when the log moved
   * since this agent last wrote to it, the turn stands where it stands now; the compaction policy
   * must admit the turn (its violation rejects, and nothing is written); then `turn.start` is fed.
   */
  begin(input: TurnEventOf<'turn.start'>): Promise<void>;
  /** A fresh abort signal for the turn, and the promise of its outcome. */
  startTurn(turnId: string): Promise<TurnOutcome>;
  /** The abort input goes ahead of every answer the aborted work gives, then the work is told. */
  abort(reason: string): Promise<void>;
  /** Carries out a blocking effect again (a resumed turn), with what the journal knows of it. */
  perform(effect: BlockingEffect, resumed?: ResumedEffect): void;
  decide(decisions: readonly unknown[]): void;
  pendingApprovals(): ToolCallPart[];
  idle(): Promise<TurnOutcome | null>;
  subscribe(listener: AgentListener): () => void;
  events(): AsyncIterableIterator<AgentEvent>;
  publish(event: AgentEvent): void;
}

/**
 * The shell's runtime: a mailbox applies one letter at a time (journal the input, step the core,
 * hand each effect to the interpreter); the work of a blocking effect runs in the background, raced
 * against the turn's signal, and comes back as a letter.
 */
export function createTurnRuntime(init: RuntimeInit): TurnRuntime {
  const { options, session } = init;
  let snapshot = init.snapshot;
  let broken: AgentBrokenError | null = null;
  let controller = new AbortController();
  /** The afterCompact hooks told last (their teller never rejects): the next compaction's, and close, wait for them. */
  let hooksTold: Promise<void> = Promise.resolve();

  const hub = createEventHub(listenerFailure);
  const toolSpecs = options.tools.map((t) => t.spec);
  const meter = new ContextMeter(snapshot.context.entries, options.systemPrompt, toolSpecs);
  const approvals = createApprovals(options.limits.approvalTimeoutMs);
  const waiters = createOutcomeWaiters();
  const journal = init.journal ? createJournalWriter(init.journal.store, init.journal.start, options.limits.writeTimeoutMs) : noJournal;
  const startup = new StartupReport(session, hub.publish);
  const inspection = createInspection(options.inspect, `tiller.turn:${session.leafId ?? 'root'}`, (error) =>
    startup.failed({ type: 'shell.error', where: 'inspector', message: describeThrown(error), at: now() }),
  );
  const partial = createPartialReply();
  const claim = sessionClaim(session);
  // A resumed turn is running already: it holds the log from the start.
  if (snapshot.context.turn) claim.take(init.entryPoint);
  const shell: EffectContext = {
    options,
    model: options.model,
    tools: new Map<string, Tool>(options.tools.map((t) => [t.name, t])),
    toolSpecs,
    session,
    journal,
    meter,
    approvals,
    guard: guardPolicy(options.compactionPolicy, options.model, meter.path, init.entryPoint),
    resumed: new Map(),
    partial,
    publish: hub.publish,
    answer: (id, input) => mailbox.post({ kind: 'answer', id, answer: { input } }),
    turnEnded(outcome) {
      // The turn's entries are in the log (its persist comes before its end is told): another agent
      // may start a turn on it now, a listener of this turn.ended included, and sees them.
      claim.release();
      approvals.drop();
      waiters.settle(outcome);
    },
  };

  /**
   * The log's leaf is the last entry the agent wrote unless something else moved it (a host's
   * `branch`, a label or a name, another agent's turn): then the agent starts over from the path
   * at the leaf, in a journal segment of its own. Comparing two ids costs nothing when nothing
   * moved; a move costs one walk of the new path. A resumed agent that finished its turn in a
   * segment of an older journal version starts over the same way, so its next turns are journaled
   * in this version.
   */
  const followSession = () => {
    const moved = session.leafId !== (snapshot.context.entries.last()?.id ?? null);
    if (!moved && journal.segmentVersion() === JOURNAL_VERSION) return;
    const base = session.path();
    snapshot = start({ maxIterations: options.limits.maxIterations, entries: base });
    meter.rebase(snapshot.context.entries);
    shell.guard?.rebase(meter.path);
    if (init.journal) journal.segment(journalHeader(options, session, base.length));
  };

  const apply = async (input: TurnEvent) => {
    // An abort from inside (a broken compaction policy, a failed handler) stops the work as a host's does.
    if (input.type === 'abort') controller.abort(input.reason);
    const result = step(snapshot, input);
    snapshot = result.snapshot;
    meter.follow(snapshot.context.entries);
    await journal.input(input, result.effects);
    inspection?.stepped(input, snapshot);
    for (const effect of result.effects) await interpret(effect, shell, launch);
    return result.effects;
  };

  const handle = async (letter: Letter) => {
    const kept = shutdown.kept();
    if (kept) {
      if (letter.kind === 'input' || letter.kind === 'start') letter.reply.reject(kept);
      return;
    }
    if (broken) {
      if (letter.kind === 'input' || letter.kind === 'start') letter.reply.reject(broken);
      return;
    }
    try {
      switch (letter.kind) {
        case 'input':
          letter.reply.resolve(await apply(letter.input));
          return;
        case 'start': {
          startup.tellOnce();
          followSession();
          try {
            shell.guard?.admitTurn();
          } catch (error) {
            // Refused before anything was written: the agent stays as it was.
            claim.release();
            waiters.refuse(letter.input.turnId, error as Error);
            waiters.noTurn(snapshot.context.lastOutcome);
            letter.reply.reject(error);
            return;
          }
          await apply(letter.input);
          // A start the core did not take leaves no turn to end: the log is not held for it.
          if (!snapshot.context.turn && claim.held()) {
            claim.release();
            waiters.noTurn(snapshot.context.lastOutcome);
          }
          letter.reply.resolve();
          return;
        }
        case 'answer': {
          // An answer counts only while the turn still waits on the effect it answers; any other is dropped.
          const current = snapshot.context.turn?.pending?.id === letter.id;
          letter.answer.settle?.(current);
          if (!current) return;
          await apply(letter.answer.input);
          // Its entries are in the log now (apply waits for the persist); the turn goes on beside what it tells.
          if (letter.answer.applied) {
            // One compaction's hooks after the last one's: a hook that keeps state must not run beside itself.
            const tell = letter.answer.applied;
            hooksTold = hooksTold.then(() => tell());
            background.keep('telling the afterCompact hooks', hooksTold);
          }
          return;
        }
        case 'perform':
          // Posted before the turn was aborted or closed, it is for a turn that no longer waits on it.
          if (shutdown.closing() || snapshot.context.turn?.pending?.id !== letter.effect.id) return;
          startup.tellOnce();
          // The resumed turn's first line comes only after the work it resumes (a model call's
          // reply): a journal that still cannot be written (a disk still full) stops it before.
          await journal.open();
          if (letter.retold) hub.publish(letter.retold);
          await interpret(letter.effect, shell, launch);
          return;
        default: {
          const unknown: never = letter;
          throw new TypeError(`unknown letter ${JSON.stringify(unknown)}`);
        }
      }
    } catch (error) {
      // Whatever was thrown (an Error, null, anything): the agent stops, unless this letter's work
      // already stopped it.
      const stopped = broken ?? breakDown(error);
      // The caller hears that the agent stopped (the cause inside), as every later caller does.
      if (letter.kind === 'input' || letter.kind === 'start') letter.reply.reject(stopped);
    }
  };
  const mailbox = createMailbox(handle);

  /** The work of blocking effects still running; `close` waits for it (it all ends soon after an abort). */
  const background = createBackgroundWork({
    answer: (id, answer) => mailbox.post({ kind: 'answer', id, answer }),
    failed: (where, message) => hub.publish({ type: 'shell.error', where, message, at: now() }),
  });
  const launch: Launch = (id, where, work) => background.start(id, where, work, controller.signal);
  const shutdown = createShutdown({ approvals, background, mailbox, claim, journal, hub, waiters, abortTurn: (reason) => controller.abort(reason) });

  /**
   * The core's state and the log no longer agree (an append failed mid-step), so no further step
   * is safe: running work is aborted and every waiting caller gets the error.
   */
  const breakDown = (error: unknown): AgentBrokenError => {
    const message = describeThrown(error);
    broken = new AgentBrokenError(`the agent stopped: ${message}`, { cause: error });
    hub.publish({ type: 'shell.error', where: 'feed', message, at: now() });
    controller.abort(broken.message);
    approvals.drop();
    claim.release();
    waiters.fail(broken);
    return broken;
  };

  const feed = (input: TurnEvent) => new Promise<readonly Effect[]>((resolve, reject) => mailbox.post({ kind: 'input', input, reply: { resolve, reject } }));

  /** The batch the turn waits decisions for, as the snapshot says (so a listener may decide at once). */
  const asked = (): AskedBatch | null => {
    const pending = snapshot.context.turn?.pending;
    return pending?.type === 'request_approval' ? pending : null;
  };

  inspection?.started(snapshot);

  return {
    getSnapshot: () => snapshot,
    brokenBy: () => broken,
    feed,
    claimSession: (method) => claim.take(method),
    begin: (input) => new Promise<void>((resolve, reject) => mailbox.post({ kind: 'start', input, reply: { resolve, reject } })),
    startTurn(turnId) {
      // A fresh signal per turn: whatever a past turn lent its signal to (a model stream, a tool that
      // kept it) must never hear of a later turn's abort.
      controller = new AbortController();
      return waiters.forTurn(turnId);
    },
    abort(reason) {
      // The reply the model was streaming, if the turn waits on it, stays in the transcript.
      const pending = snapshot.context.turn?.pending;
      const streamed = pending?.type === 'call_llm' ? partial.of(pending.id) : undefined;
      const applied = feed({ type: 'abort', at: now(), reason, ...(streamed ? { partial: streamed } : {}) });
      controller.abort(reason);
      approvals.drop();
      return applied.then(() => undefined);
    },
    perform(effect, { settled, retold, parkedAt } = {}) {
      if (shutdown.closing()) return;
      if (effect.type === 'run_tools' && settled) shell.resumed.set(effect.id, settled);
      if (effect.type === 'request_approval' && parkedAt) approvals.parkedSince(effect.id, Date.parse(parkedAt));
      mailbox.post({ kind: 'perform', effect, retold });
    },
    decide: (decisions) => approvals.decide(asked(), decisions),
    pendingApprovals() {
      const batch = asked();
      if (!batch) return [];
      const waiting = new Set(approvals.undecided(batch));
      return (snapshot.context.turn?.batch?.calls ?? []).filter((c) => waiting.has(c.id));
    },
    idle() {
      // A broken agent's last outcome may never have reached the log: it is not reported as such.
      if (broken) return Promise.reject(broken);
      const kept = shutdown.kept();
      if (kept) return Promise.reject(kept);
      // The turn runs from its prompt (before the core has it) until its end is told, after its
      // last entries reached the log: the snapshot alone shows no turn on either side of that.
      if (!claim.held()) return Promise.resolve(snapshot.context.lastOutcome);
      return waiters.forNextEnd();
    },
    turnOpen: () => claim.held(),
    subscribe: hub.subscribe,
    events: hub.iterate,
    publish: hub.publish,
    close: shutdown.close,
    keepAndClose: shutdown.keepAndClose,
  };
}
