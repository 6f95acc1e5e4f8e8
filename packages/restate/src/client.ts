import { randomUUID } from 'node:crypto';
import { type ApprovalDecision, type Entry, start as startSnapshot, type TurnOutcome, UserMessage } from '@tiller/core';
import { z } from 'zod';
import type { ParkedApproval, RunningTurn } from './session-object.js';
import type { TurnMessage } from './turn-message.js';
import type { PostResult } from './inbox-object.js';
import { DurableClientError } from './errors/durable-client-error.js';
import { DurableOptionsError } from './errors/durable-options-error.js';
import { InvalidMessageError } from './errors/invalid-message-error.js';
import { admitDecisions } from '@tiller/shell';
import { decisionList } from './approval-decisions.js';
import { dropMessages } from './drive-turn.js';

export interface ConnectOptions {
  /** The Restate server's ingress, e.g. `http://127.0.0.1:8080`. */
  ingressUrl: string;
  /** The agent's name, as given to `serve` (default `TillerSession`). */
  name?: string;
}

/** A turn sent to Restate: it runs whether or not anyone waits for it. */
export interface StartedTurn {
  turnId: string;
  invocationId: string;
  /** How the turn ended; waits as long as the turn runs. */
  outcome(): Promise<TurnOutcome>;
}

/** The host API of one durable session: the shell's, against a running Restate server. */
export interface DurableSession {
  readonly id: string;
  /** Runs a turn and resolves with how it ended. A prompt sent while a turn runs starts after it. */
  prompt(input: string | UserMessage): Promise<TurnOutcome>;
  /** Sends a turn and returns once Restate has it. Sending the same `turnId` again starts nothing new. */
  start(input: string | UserMessage, options?: { turnId?: string }): Promise<StartedTurn>;
  /**
   * Sends a steering message for the running turn (it joins at the next boundary). With no turn
   * running it is dropped: the result carries the core's `event.ignored` note with the message.
   */
  steer(input: string | UserMessage): Promise<PostResult>;
  /** Sends a follow-up for the running turn (it keeps the turn going); dropped with a note as `steer` is when none runs. */
  followUp(input: string | UserMessage): Promise<PostResult>;
  approve(decisions: ApprovalDecision | readonly ApprovalDecision[]): Promise<PostResult>;
  /** Cancels the running turn's invocation; it ends `aborted` with this reason. False when no turn runs. */
  abort(reason?: string): Promise<boolean>;
  /** The calls a running turn waits to have decided, if it waits (null once its invocation was killed). */
  pendingApprovals(): Promise<ParkedApproval | null>;
  /** The turn that runs, if one does: a turn whose invocation was killed before it finished runs no more. */
  running(): Promise<RunningTurn | null>;
  /** The session log, oldest first. */
  entries(): Promise<Entry[]>;
  /** How the last turn ended; `failed` for a turn whose invocation was killed before it finished. */
  lastOutcome(): Promise<TurnOutcome | null>;
}

/** How long `outcome()` keeps trying a server it cannot reach before it gives up. */
const UNREACHABLE_MS = 30_000;

export interface DurableClient {
  session(id: string): DurableSession;
}

const ConnectOptions = z.strictObject({
  ingressUrl: z.url({ protocol: /^https?$/, error: 'expected the ingress URL (http://host:port)' }),
  name: z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,62}$/, 'expected the name given to serve: a letter, then letters, digits or "_"').optional(),
});

// A session id is the virtual object's key, sent in the URL path: any text, but text.
const SessionId = z
  .string({ error: (issue) => `expected a non-empty string, got ${issue.input === null ? 'null' : typeof issue.input}` })
  .min(1, 'expected a non-empty string, got ""')
  .refine(encodes, 'expected well-formed text (this one has a lone surrogate)');

function encodes(id: string): boolean {
  try {
    encodeURIComponent(id);
    return true;
  } catch {
    return false;
  }
}

// The turn id is the invocation's idempotency key, sent as an HTTP header: visible ASCII only.
const StartOptions = z.strictObject({
  turnId: z.string({ error: 'expected a string' }).regex(/^[!-~]{1,256}$/, 'expected 1 to 256 visible ASCII characters (it is sent as a header)').optional(),
});

export function connect(options: ConnectOptions): DurableClient {
  const checked = ConnectOptions.safeParse(options);
  if (!checked.success) throw new DurableOptionsError(`connect: invalid options:\n${z.prettifyError(checked.error)}`);
  const ingress = options.ingressUrl.replace(/\/+$/, '');
  const name = options.name ?? 'TillerSession';

  const call = async <T>(path: string, body: unknown, headers: Record<string, string> = {}): Promise<T> => {
    let response: Response;
    try {
      response = await fetch(`${ingress}/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body ?? null),
      });
    } catch (error) {
      throw new DurableClientError(`POST /${path}: the Restate ingress at ${ingress} cannot be reached: ${(error as Error).message}`, { cause: error });
    }
    const text = await response.text();
    if (!response.ok) throw new DurableClientError(`POST /${path}: ${failure(response.status, text)}`);
    return (text === '' ? null : JSON.parse(text)) as T;
  };

  const attach = async (invocationId: string): Promise<TurnOutcome> => {
    // A long turn outlives one HTTP request: attach again until it answers. Only a server that
    // cannot be reached for a while is an error.
    let unreachableSince: number | undefined;
    for (;;) {
      let response: Response;
      try {
        response = await fetch(`${ingress}/restate/invocation/${invocationId}/attach`);
      } catch (error) {
        unreachableSince ??= Date.now();
        if (Date.now() - unreachableSince > UNREACHABLE_MS) {
          throw new DurableClientError(`the Restate ingress at ${ingress} was unreachable for ${UNREACHABLE_MS / 1000} s while waiting for ${invocationId}`, { cause: error });
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
        continue;
      }
      unreachableSince = undefined;
      const text = await response.text();
      if (response.ok) return JSON.parse(text) as TurnOutcome;
      throw new DurableClientError(`the turn's invocation ${invocationId} failed: ${failure(response.status, text)}`);
    }
  };

  /**
   * How the invocation a `running` mark names ended, or undefined while it runs (or waits to be
   * retried). A turn that finishes clears its marks before its invocation ends, so a mark that
   * outlives its invocation is that of a turn that never finished: its invocation was killed, by
   * an operator or by the server once its retries ran out (a replay whose `sessionLog` fails for
   * good can only be retried). An invocation the server no longer knows has ended too.
   */
  const invocationEnd = async (invocationId: string): Promise<InvocationEnd | undefined> => {
    let response: Response;
    try {
      response = await fetch(`${ingress}/restate/invocation/${invocationId}/output`);
    } catch (error) {
      throw new DurableClientError(`GET the output of ${invocationId}: the Restate ingress at ${ingress} cannot be reached: ${(error as Error).message}`, { cause: error });
    }
    const text = await response.text();
    // Restate's answer for an invocation that exists and has not completed.
    if (response.status === 470) return undefined;
    if (response.ok) return { kind: 'returned', outcome: JSON.parse(text) as TurnOutcome };
    // The invocation's own failure (`killed`), or an invocation the server no longer knows.
    if (response.status === 404 || failureSource(text) === 'invocation') return { kind: 'failed', failure: failure(response.status, text) };
    throw new DurableClientError(`GET the output of ${invocationId}: ${failure(response.status, text)}`);
  };

  return {
    session(id) {
      const checkedId = SessionId.safeParse(id);
      if (!checkedId.success) throw new DurableOptionsError(`client.session: invalid session id: ${checkedId.error.issues[0]!.message}`);
      const key = encodeURIComponent(id);
      const post = async (message: TurnMessage): Promise<PostResult> => {
        const result = await call<PostResult>(`${name}Inbox/${key}/post`, message);
        // The inbox still names the invocation of a turn that never finished (killed, or failed
        // for good) until the next turn opens it: what it took for that turn reached no turn.
        if (result.delivered === 'turn' && (await turnNeverFinished())) return { delivered: 'dropped', note: dropMessages(startSnapshot(), [message])[0]! };
        return result;
      };
      const session: DurableSession = {
        id,
        async prompt(input) {
          return (await session.start(input)).outcome();
        },
        async start(input, opts = {}) {
          const message = toUserMessage(input, 'prompt');
          const checked = StartOptions.safeParse(opts);
          if (!checked.success) throw new DurableOptionsError(`session.start: invalid options:\n${z.prettifyError(checked.error)}`);
          const turnId = checked.data.turnId ?? randomUUID();
          const sent = await call<{ invocationId: string }>(`${name}/${key}/turn/send`, { turnId, message }, { 'idempotency-key': turnId });
          return { turnId, invocationId: sent.invocationId, outcome: () => attach(sent.invocationId) };
        },
        steer: async (input) => post({ kind: 'steer', message: toUserMessage(input, 'steer'), at: new Date().toISOString() }),
        followUp: async (input) => post({ kind: 'follow_up', message: toUserMessage(input, 'followUp'), at: new Date().toISOString() }),
        approve: async (decisions) => post({ kind: 'approval', decisions: checkDecisions(decisions), at: new Date().toISOString() }),
        async abort(reason = 'aborted by the host') {
          const { aborted } = await call<{ aborted: boolean }>(`${name}Inbox/${key}/abort`, { reason });
          // Cancelling an invocation that has ended does nothing: no turn was running to abort.
          return aborted && !(await turnNeverFinished());
        },
        async pendingApprovals() {
          const approval = await call<ParkedApproval | null>(`${name}/${key}/pendingApprovals`, null);
          return approval && (await liveTurn()).live ? approval : null;
        },
        async running() {
          return (await liveTurn()).live;
        },
        entries: () => call(`${name}/${key}/entries`, null),
        async lastOutcome() {
          const { live, mark, end } = await liveTurn();
          // The marks of a turn whose invocation ended without clearing them: that turn is the last one.
          if (!live && mark && end) return end.kind === 'returned' ? end.outcome : unfinishedOutcome(mark, end.failure);
          return call<TurnOutcome | null>(`${name}/${key}/lastOutcome`, null);
        },
      };
      /** The session's `running` mark, and whether its invocation still runs (`live`) or how it ended. */
      const liveTurn = async (): Promise<{ live: RunningTurn | null; mark: RunningTurn | null; end?: InvocationEnd | undefined }> => {
        const mark = await call<RunningTurn | null>(`${name}/${key}/running`, null);
        if (!mark) return { live: null, mark };
        const end = await invocationEnd(mark.invocationId);
        return { live: end ? null : mark, mark, end };
      };
      /** Whether the session's `running` mark is that of a turn whose invocation ended before the turn did. */
      const turnNeverFinished = async () => {
        const { mark, end } = await liveTurn();
        return mark !== null && end !== undefined;
      };
      return session;
    },
  };
}

/** How a turn's invocation ended: with the outcome it returned, or failed (killed, say). */
type InvocationEnd = { kind: 'returned'; outcome: TurnOutcome } | { kind: 'failed'; failure: string };

/** The outcome of a turn whose invocation ended before the turn did, so it never wrote one. */
function unfinishedOutcome(mark: RunningTurn, failure: string): TurnOutcome {
  return { status: 'failed', turnId: mark.turnId, iterations: 0, reason: `the turn's invocation ${mark.invocationId} ended before the turn finished: ${failure}` };
}

/** Who a Restate error body says failed: `invocation` for the invocation's own failure, `ingress` for the call. */
function failureSource(body: string): unknown {
  try {
    return (JSON.parse(body) as { source?: unknown }).source;
  } catch {
    return undefined;
  }
}

/** A failed call as the user reads it: Restate's error body is JSON whose `message` is the handler's own words. */
function failure(status: number, body: string): string {
  try {
    const { message } = JSON.parse(body) as { message?: unknown };
    if (typeof message === 'string') return `${status} ${message}`;
  } catch {
    // Not JSON: a proxy's page, say; shown as it came.
  }
  return `${status} ${body}`;
}

/**
 * Refuses a list that is not all decisions before it is sent. The turn drops what reaches it
 * anyway (from a client of another version, a raw call) by the same rules, so both say the same.
 */
function checkDecisions(decisions: unknown): ApprovalDecision[] {
  const list = decisionList(decisions);
  // Which batch waits is the turn's to say: here only the entries that are no decision count.
  const invalid = admitDecisions(null, list).refused.find((r) => r.kind === 'invalid');
  if (invalid) throw new InvalidMessageError(`session.approve: ${invalid.message}`);
  return list as ApprovalDecision[];
}

function toUserMessage(input: string | UserMessage, method: string): UserMessage {
  if (typeof input === 'string') return { role: 'user', content: input };
  const parsed = UserMessage.safeParse(input);
  if (!parsed.success) throw new InvalidMessageError(`session.${method}: invalid message:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
