import { randomUUID } from 'node:crypto';
import { type ApprovalDecision, start, type ToolCallPart, type TurnOutcome, type TurnSnapshot, UserMessage } from '@tiller/core';
import { createSessionLog, MemoryStore, type SessionLog } from '@tiller/session';
import { z } from 'zod';
import { now } from '../clock.js';
import { fileJournal, journalPathFor, type JournalStore } from '../journal/journal-store.js';
import type { AgentEvent, AgentListener } from './agent-event.js';
import { AgentBusyError } from '../errors/agent-busy-error.js';
import { AgentClosedError } from '../errors/agent-closed-error.js';
import { lastReplyOf, type TurnReply } from './last-reply.js';
import { postResultOf, type PostResult } from './post-result.js';
import { parseCloseOptions, type CloseOptions } from './close-options.js';
import { InvalidMessageError } from '../errors/invalid-message-error.js';
import { journalHeader } from '../journal/journal-header.js';
import { createTurnRuntime, type TurnRuntime } from '../runtime/turn-runtime.js';
import { resolveAgentOptions, type AgentOptions } from './agent-options.js';

/** What a host sends as a prompt, a steering message or a follow-up: text, or a full user message. */
export type UserInput = string | UserMessage;

export interface Agent extends AsyncIterable<AgentEvent> {
  /** The core's current snapshot (read-only); after a change to the log outside the agent, the next turn's start brings it up to the log. */
  readonly snapshot: TurnSnapshot;
  readonly session: SessionLog;
  /** Where the agent journals its inputs; undefined when it keeps no journal (see `AgentOptions.journal`). */
  readonly journal: JournalStore | undefined;
  /**
   * Runs a turn from the session log's leaf as it stands now; resolves with how it ended. Throws
   * `AgentBusyError` while a turn of this agent runs, `SessionBusyError` while another agent's
   * turn runs on the same log, `AgentClosedError` once `close()` was called (as `steer` and
   * `followUp` do).
   */
  prompt(input: UserInput): Promise<TurnOutcome>;
  /**
   * A message for the model at the next boundary of the running turn (after the current tool
   * batch). Resolves once applied: `{delivered: 'turn'}`, or `{delivered: 'dropped', note}` when
   * no turn was running (the note holds the message).
   */
  steer(input: UserInput): Promise<PostResult>;
  /** A message that starts another model call when the turn would otherwise end; resolves as `steer` does. */
  followUp(input: UserInput): Promise<PostResult>;
  /** Stops the running turn: the model stream and every running tool get the abort; the core closes the transcript. */
  abort(reason?: string): Promise<void>;
  /**
   * Decides parked tool calls; once every asked call has a decision, the batch goes on. Throws
   * `ApprovalError` for a malformed decision (a deny needs a rationale) or a call that is not waiting.
   */
  approve(decisions: ApprovalDecision | readonly ApprovalDecision[]): void;
  /** Tool calls waiting for `approve`. */
  pendingApprovals(): ToolCallPart[];
  /** Resolves when no turn runs, with the last outcome. */
  idle(): Promise<TurnOutcome | null>;
  /**
   * The model's answer that ended the last turn (its message, and its text), or undefined: before
   * the first turn, while one runs, and when the last one ended otherwise (aborted or failed before
   * a reply, stopped by `maxIterations` in a tool round).
   */
  lastReply(): TurnReply | undefined;
  subscribe(listener: AgentListener): () => void;
  /** Every event from now on; ends when the agent closes. */
  events(): AsyncIterableIterator<AgentEvent>;
  /**
   * Aborts a running turn (or, with `keepTurn`, leaves it in the journal for `resumeAgent`), waits
   * for the work in flight and the `afterCompact` hooks told and queued (each compaction's within
   * `limits.compactionTimeoutMs`), closes the journal, ends the event iterators. The session stays open.
   */
  close(options?: CloseOptions): Promise<void>;
}

/** Creates an agent over a session (an empty in-memory one by default). Throws `AgentOptionsError` for bad options. */
export function createAgent(options: AgentOptions): Agent {
  const resolved = resolveAgentOptions(options);
  const session = resolved.session ?? createSessionLog(new MemoryStore());
  const journal = resolved.journal ?? defaultJournal(session);
  const base = session.path();
  const snapshot = start({ maxIterations: resolved.limits.maxIterations, entries: base });
  const runtime = createTurnRuntime({
    options: resolved,
    session,
    journal: journal && { store: journal, start: { kind: 'new', header: journalHeader(resolved, session, base.length) } },
    snapshot,
    entryPoint: 'createAgent',
  });
  return new HostAgent(session, journal, runtime);
}

/**
 * Beside the session's file when its store keeps one. A session kept in memory gets no journal:
 * nothing could resume from it after a crash, and lines kept for every input of every agent
 * would grow with history (a host that wants one in memory passes `journal: memoryJournal()`).
 */
function defaultJournal(session: SessionLog): JournalStore | undefined {
  const { path } = session.store;
  return path === undefined ? undefined : fileJournal(journalPathFor(path));
}

function toUserMessage(input: UserInput, method: string): UserMessage {
  if (typeof input === 'string') {
    if (input.trim() === '') throw new InvalidMessageError(`agent.${method}: the message is empty; expected text or a user message with content`);
    return { role: 'user', content: input };
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    const got = input === null ? 'null' : Array.isArray(input) ? 'an array' : `a ${typeof input}`;
    throw new InvalidMessageError(`agent.${method}: expected a string or a user message ({role: 'user', content}), got ${got}`);
  }
  const parsed = UserMessage.safeParse(input);
  if (!parsed.success) throw new InvalidMessageError(`agent.${method}: invalid user message:\n${z.prettifyError(parsed.error)}`);
  const { content } = parsed.data;
  if (typeof content === 'string' ? content.trim() === '' : content.length === 0) {
    throw new InvalidMessageError(`agent.${method}: the message is empty; expected text or a user message with content`);
  }
  return parsed.data;
}

/**
 * The host API over a runtime; `resumeAgent` builds the same over a replayed snapshot. A class, so
 * its methods and its `snapshot` accessor live once on the prototype rather than in every agent.
 */
export class HostAgent implements Agent {
  readonly session: SessionLog;
  readonly journal: JournalStore | undefined;
  readonly #runtime: TurnRuntime;
  /**
   * Until turn.start is applied the snapshot shows no turn; `starting` covers that gap only, so a
   * listener may prompt again as soon as it hears turn.ended.
   */
  #starting = false;
  /** Set as `close()` starts: a turn begun from then on would outlive the close (its iterators ended, its journal reopened). */
  #closed = false;

  constructor(session: SessionLog, journal: JournalStore | undefined, runtime: TurnRuntime) {
    this.session = session;
    this.journal = journal;
    this.#runtime = runtime;
  }

  get snapshot(): TurnSnapshot {
    return this.#runtime.getSnapshot();
  }

  async prompt(input: UserInput): Promise<TurnOutcome> {
    const runtime = this.#runtime;
    const message = toUserMessage(input, 'prompt');
    this.#refuseIfClosed('prompt');
    const broken = runtime.brokenBy();
    if (broken) throw broken;
    // Open until its end is told: a prompt while the last entries are written would run a turn whose
    // hold on the log the ending turn then lets go.
    if (this.#starting || runtime.turnOpen()) {
      throw new AgentBusyError('agent.prompt: a turn is running; use steer() or followUp(), or wait for idle()');
    }
    runtime.claimSession('agent.prompt');
    const turnId = randomUUID();
    const outcome = runtime.startTurn(turnId);
    // If the start itself fails (or the compaction policy refuses the turn), that error is the one the caller gets.
    outcome.catch(() => undefined);
    this.#starting = true;
    try {
      await runtime.begin({ type: 'turn.start', turnId, at: now(), message });
    } finally {
      this.#starting = false;
    }
    return outcome;
  }

  async steer(input: UserInput): Promise<PostResult> {
    const message = toUserMessage(input, 'steer');
    this.#refuseIfClosed('steer');
    return postResultOf(await this.#runtime.feed({ type: 'steer', at: now(), message }));
  }

  async followUp(input: UserInput): Promise<PostResult> {
    const message = toUserMessage(input, 'followUp');
    this.#refuseIfClosed('followUp');
    return postResultOf(await this.#runtime.feed({ type: 'follow_up', at: now(), message }));
  }

  #refuseIfClosed(method: string): void {
    if (this.#closed) throw new AgentClosedError(`agent.${method}: the agent is closed; make a new one over the session (createAgent or resumeAgent) to go on`);
  }

  async abort(reason?: string): Promise<void> {
    // A turn that is starting (its turn.start still queued) counts as running.
    if (!this.#starting && !this.#runtime.getSnapshot().context.turn) return;
    await this.#runtime.abort(reason ?? 'aborted by the host');
  }

  approve(decisions: ApprovalDecision | readonly ApprovalDecision[]): void {
    this.#runtime.decide(Array.isArray(decisions) ? decisions : [decisions]);
  }

  pendingApprovals(): ToolCallPart[] {
    return this.#runtime.pendingApprovals();
  }

  idle(): Promise<TurnOutcome | null> {
    return this.#runtime.idle();
  }

  subscribe(listener: AgentListener): () => void {
    return this.#runtime.subscribe(listener);
  }

  events(): AsyncIterableIterator<AgentEvent> {
    return this.#runtime.events();
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<AgentEvent> {
    return this.#runtime.events();
  }

  lastReply(): TurnReply | undefined {
    return lastReplyOf(this.#runtime.getSnapshot().context);
  }

  async close(options?: CloseOptions): Promise<void> {
    const { keepTurn } = parseCloseOptions(options, this.journal !== undefined);
    this.#closed = true;
    if (keepTurn && (this.#starting || this.#runtime.turnOpen())) {
      return this.#runtime.keepAndClose(
        new AgentClosedError('agent.close: the agent was closed with keepTurn: its turn is left in the journal, for resumeAgent to carry on'),
      );
    }
    try {
      await this.abort('the agent was closed');
    } catch (error) {
      // A stopped agent's abort only says that it stopped; what it holds is released all the same.
      if (!this.#runtime.brokenBy()) throw error;
    }
    await this.#runtime.close();
  }
}
