import type { ShellError } from '../errors/shell-error.js';
import type { BoundaryReason, LlmFailure, ProgressEvent, StopReason, Usage } from '@tiller/core';
import type { ReadWarning } from '@tiller/session';
import type { ToolRefusalReason } from '../tools/tool-refusal.js';

/** What the shell itself reports, beside the core's progress events. Every one carries its time. */
export type ShellEvent =
  | { type: 'llm.started'; callId: string; attempt: number; at: string }
  | { type: 'llm.finished'; callId: string; stopReason: StopReason; usage?: Usage | undefined; at: string }
  | { type: 'llm.retry'; callId: string; attempt: number; delayMs: number; error: LlmFailure; at: string }
  | { type: 'text.delta'; callId: string; delta: string; at: string }
  | { type: 'thinking.delta'; callId: string; delta: string; at: string }
  | { type: 'toolcall.delta'; callId: string; toolCallId: string; toolName: string; delta: string; at: string }
  | { type: 'tool.started'; batchId: string; toolCallId: string; toolName: string; at: string }
  | { type: 'tool.finished'; batchId: string; toolCallId: string; toolName: string; isError: boolean; durationMs: number; at: string }
  /**
   * A call of the batch that did not run, and never started: a tool the agent does not have,
   * arguments that are not a JSON object or that its schema refuses (or fails on), or a denial by
   * the policy or the host. Told once, when the batch has nothing left to ask, before its calls
   * run; `message` is the error result the model reads.
   */
  | { type: 'tool.refused'; batchId: string; toolCallId: string; toolName: string; reason: ToolRefusalReason; message: string; at: string }
  | { type: 'tool.interrupted'; batchId: string; toolCallId: string; toolName: string; rerun: boolean; at: string }
  | {
      type: 'compaction.started';
      compactionId: string;
      midRound: boolean;
      reason: BoundaryReason;
      force: boolean;
      /** The context's estimated size before the compactor ran. */
      tokensBefore: number;
      at: string;
    }
  /**
   * What opening the session log skipped or changed (a corrupt line, a lost parent: `log.warnings`),
   * one event per warning, before the agent's first turn (or a resumed turn) goes on.
   */
  | { type: 'session.warning'; warning: ReadWarning; at: string }
  /** A journal line whose write was cut short (`kind: 'torn_line'`), left out when `resumeAgent` read the journal; told before the agent goes on. */
  | { type: 'journal.warning'; warning: ReadWarning; at: string }
  /** Something went wrong beside the turn's own course; `error` is there when a typed error says more (a broken compaction policy's numbers). */
  | { type: 'shell.error'; where: string; message: string; error?: ShellError | undefined; at: string };

/** Everything a subscriber hears: the core's progress (turn, messages, tools, approvals, compaction, end) and the shell's. */
export type AgentEvent = ProgressEvent | ShellEvent;
export type AgentEventType = AgentEvent['type'];
export type AgentListener = (event: AgentEvent) => void;
