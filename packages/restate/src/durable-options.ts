import type { ProgressEvent } from '@tiller/core';
import type { SessionLog } from '@tiller/session';
import { AgentOptions } from '@tiller/shell';
import { z } from 'zod';
import { DurableOptionsError } from './errors/durable-options-error.js';

/** A progress event of a durable turn, as subscribers get it: at least once (see docs/durable.md). */
export interface DurableEvent {
  sessionId: string;
  turnId: string;
  /** The event's place in its turn: a replay delivers the same event with the same number again. */
  seq: number;
  event: ProgressEvent;
}

const ms = z.number().int().positive();

/** The shell's options where they mean the same here (checked the same way), and the durable ones. */
export const DurableAgentOptions = AgentOptions.pick({
  model: true,
  tools: true,
  /** Decides each call before it runs; its decisions are journaled, so a replay does not ask again. */
  policy: true,
  systemPrompt: true,
  compactor: true,
  compactorOptions: true,
  hooks: true,
  /** `approvalTimeoutMs` is a durable timer here, so it may be hours. */
  limits: true,
}).extend({
  /** The session object's name on Restate; the inbox is `<name>Inbox`. Letters, digits and `_`. */
  name: z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,62}$/, 'expected a letter, then letters, digits or "_"').default('TillerSession'),
  /**
   * The session log of a session, when the host keeps it (a JSONL or SQLite store); by default the
   * log is the session object's own state on Restate. Every worker must reach the same store.
   */
  sessionLog: z
    .custom<(sessionId: string) => SessionLog | Promise<SessionLog>>((value) => typeof value === 'function', { message: 'expected a function (sessionId) => SessionLog' })
    .optional(),
  /** Progress events, at least once: a replay delivers the events of the steps it replays again, with the same `seq`. */
  onEvent: z.custom<(event: DurableEvent) => void>((value) => typeof value === 'function', { message: 'expected a function (event) => void' }).optional(),
  /**
   * How long Restate lets a step run without hearing from the worker before it asks the worker to
   * suspend, and how long after that it cuts the attempt. Model calls and tools run inside steps:
   * these must be above the longest of them (a cut attempt replays, and a cut tool is interrupted).
   */
  inactivityTimeoutMs: ms.default(15 * 60_000),
  abortTimeoutMs: ms.default(15 * 60_000),
});

export type DurableAgentOptions = z.input<typeof DurableAgentOptions>;
export type ResolvedDurableOptions = z.output<typeof DurableAgentOptions>;

export function resolveDurableOptions(options: DurableAgentOptions, entryPoint: string): ResolvedDurableOptions {
  const parsed = DurableAgentOptions.safeParse(options);
  if (!parsed.success) throw new DurableOptionsError(`${entryPoint}: invalid options:\n${z.prettifyError(parsed.error)}`);
  const resolved = parsed.data;
  try {
    resolved.compactor.validateOpts?.(resolved.compactorOptions, `${entryPoint} (compactorOptions)`);
  } catch (error) {
    throw new DurableOptionsError(`${entryPoint}: invalid compactorOptions: ${(error as Error).message}`);
  }
  return resolved;
}
