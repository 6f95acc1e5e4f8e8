import { type CompactionHooks, type Compactor, NoOpCompactor } from '@tiller/compaction';
import type { ProgressEvent, TillerModel } from '@tiller/core';
import { AgentLimits, isTool, type Tool, type ToolPolicy } from '@tiller/shell';
import { z } from 'zod';

/** A progress event of a durable turn, as subscribers get it: at least once (see docs/durable.md). */
export interface DurableEvent {
  sessionId: string;
  turnId: string;
  /** The event's place in its turn: a replay delivers the same event with the same number again. */
  seq: number;
  event: ProgressEvent;
}

export class DurableOptionsError extends Error {
  override readonly name = 'DurableOptionsError';
}

const fn = <T>(what: string) => z.custom<T>((value) => typeof value === 'function', { message: `expected ${what}` });
const ms = z.number().int().positive();

export const DurableAgentOptions = z.strictObject({
  /** The session object's name on Restate; the inbox is `<name>Inbox`. Letters, digits and `_`. */
  name: z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,62}$/, 'expected a letter, then letters, digits or "_"').default('TillerSession'),
  model: z.custom<TillerModel>(
    (value) => typeof (value as TillerModel | undefined)?.stream === 'function' && typeof (value as TillerModel).id === 'string',
    { message: 'expected a Tiller model (an object with an id and stream(request)); wrap an AI SDK model with fromLanguageModel(model)' },
  ),
  tools: z
    .array(z.custom<Tool>(isTool, { message: 'expected a tool made by defineTool' }))
    .default([])
    .superRefine((tools, ctx) => {
      const seen = new Set<string>();
      for (const [i, tool] of tools.entries()) {
        if (seen.has(tool.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `two tools are named "${tool.name}"` });
        seen.add(tool.name);
      }
    }),
  /** Decides each call before it runs; its decisions are journaled, so a replay does not ask again. */
  policy: fn<ToolPolicy>('a function (call) => decision').optional(),
  systemPrompt: z.string().optional(),
  compactor: z
    .custom<Compactor<unknown>>((value) => typeof (value as Compactor<unknown> | undefined)?.maybeCompact === 'function', { message: 'expected a Compactor' })
    .default(NoOpCompactor as Compactor<unknown>),
  compactorOptions: z.unknown().optional(),
  hooks: z.custom<CompactionHooks>((value) => typeof value === 'object' && value !== null, { message: 'expected an object of hooks' }).default({}),
  /** The shell's limits; `approvalTimeoutMs` is a durable timer here, so it may be hours. */
  limits: AgentLimits.default(AgentLimits.parse({})),
  /** Progress events, at least once: a replay delivers the events of the steps it replays again, with the same `seq`. */
  onEvent: fn<(event: DurableEvent) => void>('a function (event) => void').optional(),
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
  return parsed.data;
}
