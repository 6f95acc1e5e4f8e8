import { type CompactionHooks, type Compactor, isCompactor, NoOpCompactor } from '@tiller/compaction';
import type { ProgressEvent } from '@tiller/core';
import type { SessionLog } from '@tiller/session';
import { type AgentLimits, AgentOptionsError, checkCompactorFit, resolveLimits, type ShellEvent, tillerModelOption, type Tool, type ToolPolicy } from '@tiller/shell';
import { z } from 'zod';
import { DurableOptionsError } from './errors/durable-options-error.js';

/**
 * The shell's events of one tool call, which a durable turn tells too: a call refused before
 * anything ran, a call that starts and finishes, a call a crash interrupted.
 */
export type DurableToolEvent = Extract<ShellEvent, { type: 'tool.refused' | 'tool.started' | 'tool.finished' | 'tool.interrupted' }>;

/**
 * An event of a durable turn, as subscribers get it: the core's progress events at least once,
 * the tool events once (see docs/durable.md).
 */
export interface DurableEvent {
  sessionId: string;
  turnId: string;
  /** The event's place in its turn: a replay that delivers an event again gives it the same number. */
  seq: number;
  event: ProgressEvent | DurableToolEvent;
}

const ms = z.number().int().positive();
const fn = <T>(what: string) => z.custom<T>((value) => typeof value === 'function', { message: `expected ${what}` });

export const DurableAgentOptions = z.strictObject({
  model: tillerModelOption,
  tools: z
    .array(z.custom<Tool>((value) => (value as Tool | undefined)?.kind === 'tiller.tool', { message: 'expected a tool made by defineTool' }))
    .default([])
    .superRefine((tools, ctx) => {
      const names = tools.map((tool) => tool.name);
      for (const [i, name] of names.entries()) {
        if (names.indexOf(name) !== i) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `duplicate tool name "${name}"` });
      }
    }),
  /** Decides each call before it runs; its decisions are journaled, so a replay does not ask again. */
  policy: fn<ToolPolicy>('a function (call) => {decision: "allow"} | {decision: "deny", rationale} | {decision: "ask"}').optional(),
  systemPrompt: z.string().optional(),
  compactor: z
    .custom<Compactor<any>>(isCompactor, { message: 'expected a Compactor (an object with a name and maybeCompact(acc, ctx, opts)), such as WindowManager(...)' })
    .default(NoOpCompactor as Compactor<any>),
  compactorOptions: z.unknown().optional(),
  hooks: z.strictObject({ afterCompact: z.array(fn<NonNullable<CompactionHooks['afterCompact']>[number]>('a function (meta) => void')).optional() }).default({}),
  /**
   * The shell's limits, with its names, defaults and checks (`resolveLimits`); `approvalTimeoutMs`
   * is a durable timer here, so it may be hours.
   */
  limits: z.custom<Partial<AgentLimits>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), { message: 'expected an object of limits' }).optional(),
  /** The session object's name on Restate; the inbox is `<name>Inbox`. Letters, digits and `_`. */
  name: z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,62}$/, 'expected a letter, then letters, digits or "_"').default('TillerSession'),
  /**
   * The session log of a session, when the host keeps it (a JSONL or SQLite store); by default the
   * log is the session object's own state on Restate. Every worker must reach the same store.
   */
  sessionLog: fn<(sessionId: string) => SessionLog | Promise<SessionLog>>('a function (sessionId) => SessionLog').optional(),
  /**
   * Progress events, at least once: a replay delivers the events of the steps it replays again,
   * with the same `seq`; the tool events of each call (`tool.refused`, `tool.started`,
   * `tool.finished`, `tool.interrupted`) once, not again on a replay. It may be async; nothing
   * waits for it, and a throw or a rejection is a warning in the worker's log, never a fault of
   * the turn.
   */
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
export type ResolvedDurableOptions = Omit<z.output<typeof DurableAgentOptions>, 'limits'> & { limits: AgentLimits };

export function resolveDurableOptions(options: DurableAgentOptions, entryPoint: string): ResolvedDurableOptions {
  const parsed = DurableAgentOptions.safeParse(options);
  if (!parsed.success) throw new DurableOptionsError(`${entryPoint}: invalid options:\n${z.prettifyError(parsed.error)}`);
  // The approval's wait is a durable sleep on Restate, not a Node timer: it may be longer than the
  // shell lets a timer wait, so it is checked here, and the rest by the shell.
  const { approvalTimeoutMs, ...shellLimits } = parsed.data.limits ?? {};
  const approval = ms.optional().safeParse(approvalTimeoutMs);
  if (!approval.success) throw new DurableOptionsError(`${entryPoint}: invalid options:\n${z.prettifyError(approval.error)}\n  → at limits.approvalTimeoutMs`);
  let limits: AgentLimits;
  try {
    limits = resolveLimits(shellLimits, entryPoint);
  } catch (error) {
    if (!AgentOptionsError.isInstance(error)) throw error;
    throw new DurableOptionsError(error.message);
  }
  if (approval.data !== undefined) limits = { ...limits, approvalTimeoutMs: approval.data };
  const cutMs = stepCutMs(parsed.data);
  if (shellLimits.compactionTimeoutMs === undefined && COMPACTION_STEP_SPANS * limits.compactionTimeoutMs >= cutMs) {
    // The shell's default (10 min) is longer than some cuts a host may choose: a limit nobody set
    // is taken so that the step fits below the cut (with a tenth to spare, for it to end) rather than refused.
    limits = { ...limits, compactionTimeoutMs: Math.floor((cutMs * 0.9) / COMPACTION_STEP_SPANS) };
  }
  const resolved = { ...parsed.data, limits };
  const cut = stepCutProblem(resolved);
  if (cut) throw new DurableOptionsError(`${entryPoint}: invalid options: ${cut}`);
  try {
    resolved.compactor.validateOpts?.(resolved.compactorOptions, `${entryPoint} (compactorOptions)`);
  } catch (error) {
    throw new DurableOptionsError(`${entryPoint}: invalid compactorOptions: ${(error as Error).message}`);
  }
  try {
    checkCompactorFit(resolved.compactor, resolved.compactorOptions, resolved.model, entryPoint);
  } catch (error) {
    if (!AgentOptionsError.isInstance(error)) throw error;
    throw new DurableOptionsError(error.message);
  }
  return resolved;
}

/**
 * The shell's time limits of a step's work, and what Restate does instead when it cuts the step
 * first: it hears nothing from a worker while a step runs, and cuts the attempt once
 * `inactivityTimeoutMs + abortTimeoutMs` have passed. The shell's limit must fire before that.
 */
const STEP_LIMITS = [
  ['toolTimeoutMs', 'a tool that runs until its time limit would be cut after it ran, and the model told it was interrupted (an idempotent one run again, and cut again)'],
  ['firstTokenTimeoutMs', 'a model call that waits that long for its first token would be cut and made again, never failing on its time limit'],
  ['streamIdleTimeoutMs', 'a model stream that goes quiet that long would be cut and made again, never failing on its time limit'],
  ['compactionTimeoutMs', 'a compactor that runs that long would be cut and run again, never stopped by its time limit so the turn goes on uncompacted'],
] as const;

/**
 * The compaction step runs the compactor, then the afterCompact hooks with as long again of their
 * own (see the shell's `runCompaction`): it may take twice `compactionTimeoutMs`.
 */
const COMPACTION_STEP_SPANS = 2;

/** When Restate cuts a step it has heard nothing of. */
const stepCutMs = (options: { inactivityTimeoutMs: number; abortTimeoutMs: number }) => options.inactivityTimeoutMs + options.abortTimeoutMs;

function stepCutProblem(options: ResolvedDurableOptions): string | undefined {
  const cutMs = stepCutMs(options);
  for (const [name, consequence] of STEP_LIMITS) {
    const limitMs = options.limits[name];
    const spans = name === 'compactionTimeoutMs' ? COMPACTION_STEP_SPANS : 1;
    if (spans * limitMs < cutMs) continue;
    const twice = spans > 1 ? ', twice over (the compactor, then the afterCompact hooks, in one step),' : '';
    return `limits.${name} (${limitMs} ms)${twice} is not below inactivityTimeoutMs + abortTimeoutMs (${cutMs} ms), after which Restate cuts a step: ${consequence}; raise inactivityTimeoutMs or lower the limit\n  → at limits.${name}`;
  }
  return undefined;
}
