import { isCompactor, NoOpCompactor, type CompactionHooks, type CompactionPolicy, type Compactor } from '@tiller/compaction';
import type { SessionLog } from '@tiller/session';
import { z } from 'zod';
import { isTool, type Tool } from '../tools/define-tool.js';
import type { ToolPolicy } from '../tools/policy.js';
import type { JournalStore } from '../journal/journal-store.js';
import type { InspectOption } from '../runtime/inspection.js';
import { AgentOptionsError } from '../errors/agent-options-error.js';
import { describeThrown } from '../describe-thrown.js';
import { checkCompactorFit } from './check-compactor-fit.js';
import { tillerModelOption } from './model-option.js';
import { delayMs, timeLimitMs } from '../timer-ms.js';

const fn = <T>(what: string) => z.custom<T>((value) => typeof value === 'function', { message: `expected ${what}` });

export const AgentLimits = z.strictObject({
  /** Model calls with tools per turn; then one final call without tools. */
  maxIterations: z.number().int().nonnegative().default(25),
  maxToolConcurrency: z.number().int().positive().default(4),
  /** Per tool call, unless the tool sets its own `timeoutMs`. */
  toolTimeoutMs: timeLimitMs.default(120_000),
  /** Text of one tool result beyond this is cut, with a note saying so. */
  maxToolOutputChars: z.number().int().positive().default(50_000),
  /** A parked approval denies after this long. */
  approvalTimeoutMs: timeLimitMs.default(300_000),
  /** Retries of a transient model error (not counting the first attempt). */
  maxRetries: z.number().int().nonnegative().default(3),
  retryBaseDelayMs: delayMs.default(1_000),
  retryMaxDelayMs: delayMs.default(30_000),
  /**
   * A model call that has streamed nothing (no text, thinking or tool call) this long after it
   * started fails as transient and is retried: a server that accepts and never answers.
   */
  firstTokenTimeoutMs: timeLimitMs.default(180_000),
  /** A model stream that goes quiet this long between two parts fails as transient and is retried. */
  streamIdleTimeoutMs: timeLimitMs.default(120_000),
  /**
   * One append to the session store or the journal (or the journal's close) that has not settled
   * this long stops the agent (`AgentBrokenError`): whether it was written is not known.
   */
  writeTimeoutMs: timeLimitMs.default(60_000),
  /**
   * A compaction (the compactor, its summarizer calls) that has not finished this long is
   * stopped: its signal aborts, it compacts nothing, and the turn goes on. Generous, for a
   * summarizer that works through a long history in chunks. The afterCompact hooks, told once the
   * compaction is in the log, get as long again: one still running then is left behind. `close()`
   * waits for them, so it may wait this long for each compaction whose hooks have not ended.
   */
  compactionTimeoutMs: timeLimitMs.default(600_000),
});
export type AgentLimits = z.output<typeof AgentLimits>;

/**
 * The limits with the shell's defaults where `limits` leaves them out, checked: a bad one throws
 * `AgentOptionsError` naming it (`limits.maxRetries`). `createAgent` resolves its limits this way,
 * and so does a durable engine, so both read one schema.
 */
export function resolveLimits(limits: Partial<AgentLimits> | undefined, entryPoint: string): AgentLimits {
  const parsed = AgentLimits.safeParse(limits ?? {});
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({ ...issue, path: ['limits', ...issue.path] }));
  throw new AgentOptionsError(`${entryPoint}: invalid options:\n${z.prettifyError(new z.ZodError(issues))}`);
}

export const AgentOptions = z.strictObject({
  model: tillerModelOption,
  tools: z
    .array(z.custom<Tool>(isTool, { message: 'expected a tool made by defineTool' }))
    .default([])
    .superRefine((tools, ctx) => {
      const seen = new Set<string>();
      for (const [i, tool] of tools.entries()) {
        if (seen.has(tool.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `duplicate tool name "${tool.name}"` });
        seen.add(tool.name);
      }
    }),
  // Any compactor, whatever its options type: `compactorOptions` is what the shell hands it.
  compactor: z
    .custom<Compactor<any>>(isCompactor, {
      message: 'expected a Compactor (an object with a name and maybeCompact(acc, ctx, opts)), such as NoOpCompactor or WindowManager(...)',
    })
    .default(NoOpCompactor as Compactor<any>),
  /** Passed to the compactor as `opts` at every boundary. */
  compactorOptions: z.unknown().optional(),
  /**
   * The log the turns write to (an empty in-memory one by default). Each turn starts from its leaf
   * as it stands then; one turn at a time runs on it, whichever agent runs it.
   */
  session: z
    .custom<SessionLog>((value) => typeof (value as SessionLog | undefined)?.append === 'function' && typeof (value as SessionLog).path === 'function', {
      message: 'expected a SessionLog (createSessionLog(store))',
    })
    .optional(),
  /**
   * Where every input is journaled (what `resumeAgent` and `replayJournal` read). Default: beside
   * the session's file when its store keeps one, else none.
   */
  journal: z
    .custom<JournalStore>((value) => typeof (value as JournalStore | undefined)?.append === 'function', {
      message: 'expected a JournalStore (memoryJournal() or fileJournal(path))',
    })
    .optional(),
  policy: fn<ToolPolicy>('a function (call) => {decision: "allow"} | {decision: "deny", rationale} | {decision: "ask"}').optional(),
  hooks: z
    .strictObject({
      afterCompact: z.array(fn<NonNullable<CompactionHooks['afterCompact']>[number]>('a function (meta) => void')).optional(),
    })
    .default({}),
  limits: AgentLimits.default(AgentLimits.parse({})),
  systemPrompt: z.string().optional(),
  /** A compaction policy (`@tiller/compaction`): bound to the model here, its premises checked as turns run. */
  compactionPolicy: z
    .custom<CompactionPolicy>(
      (value) => ['bindTo', 'admitTurn', 'observeContext'].every((k) => typeof (value as Record<string, unknown> | undefined)?.[k] === 'function'),
      { message: 'expected a CompactionPolicy (CompactionPolicy.disabled/localSummarizer/turnCap)' },
    )
    .optional(),
  inspect: z
    .custom<InspectOption>(
      (value) =>
        typeof value === 'function' ||
        (typeof value === 'object' && value !== null && ['actor', 'event', 'snapshot'].every((k) => typeof (value as Record<string, unknown>)[k] === 'function')),
      { message: 'expected an inspector (with actor, event and snapshot methods, as from @statelyai/inspect) or a function' },
    )
    .optional(),
});
/** What `createAgent` takes; see docs/shell.md for each option. */
export type AgentOptions = z.input<typeof AgentOptions>;
export type ResolvedAgentOptions = z.output<typeof AgentOptions>;

/** Validates the options; the error names each bad option and what was expected. */
export function resolveAgentOptions(options: AgentOptions, entryPoint = 'createAgent'): ResolvedAgentOptions {
  const parsed = AgentOptions.safeParse(options);
  if (!parsed.success) throw new AgentOptionsError(`${entryPoint}: invalid options:\n${z.prettifyError(parsed.error)}`);
  const resolved = parsed.data;
  try {
    resolved.compactor.validateOpts?.(resolved.compactorOptions, `${entryPoint} (compactorOptions)`);
  } catch (error) {
    throw new AgentOptionsError(`${entryPoint}: invalid compactorOptions: ${describeThrown(error)}`);
  }
  checkCompactorFit(resolved.compactor, resolved.compactorOptions, resolved.model, entryPoint);
  return resolved;
}
