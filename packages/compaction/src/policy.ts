import { z } from 'zod';
import { CompactionPolicyError, CompactionPolicyViolation } from './errors/index.js';
import { describeValue } from './describe-value.js';
import { defaultModelCatalog, type ModelCatalog } from './model-catalog.js';
import { DEFAULT_COMPACTION_SETTINGS } from './settings.js';

export type CompactionPolicyKind = 'disabled' | 'localSummarizer' | 'turnCap';

/** Which model summarizes for a session, when one does. */
export interface SummarizerChoice {
  model: string;
  /** Present only for a summarizer with its own credentials; never written to a manifest. */
  apiKey?: string | undefined;
  /** True when the summarizer is not the session's model (a local model, for instance). */
  separate: boolean;
}

/** What a policy proved about a model when bound to it. */
export interface PolicyBinding {
  model: string;
  contextWindow: number;
  reserveTokens: number;
  /** `contextWindow - reserveTokens`: what the conversation may fill. */
  budget: number;
  /** The most the policy lets the conversation reach (turns x tokens per turn), when it bounds it. */
  required: number | undefined;
}

/** The policy as JSON for a run's manifest: every setting, never a secret. */
export type PolicyManifest =
  | { policy: 'disabled'; maxTurns: number }
  | { policy: 'localSummarizer'; model: string; apiKey: 'provided' | 'absent' }
  | { policy: 'turnCap'; maxTurns: number; maxTokensPerTurn: number };

export interface BindOptions {
  catalog?: ModelCatalog | undefined;
  reserveTokens?: number | undefined;
}

export interface ContextObservation {
  /** Turns admitted so far, the current one included. */
  turnsUsed: number;
  contextTokens: number;
  contextWindow: number;
}

/** How a session is kept inside its model's window, with the premises checked as it runs. */
export interface CompactionPolicy {
  readonly kind: CompactionPolicyKind;
  /** Proves the policy fits `model`'s window (catalog id, or an id with a pinned window); throws `CompactionPolicyError` with the numbers. */
  bindTo(model: string | { id: string; contextWindow: number }, options?: BindOptions): PolicyBinding;
  /** Throws `CompactionPolicyViolation` when turn `n` (1-based) is beyond what the policy allows. */
  admitTurn(n: number): void;
  /** Throws `CompactionPolicyViolation` when the context has outgrown the policy's premise. */
  observeContext(observation: ContextObservation): void;
  /** Who summarizes for a session on `sessionModel`; null when this policy never summarizes. */
  summarizerFor(sessionModel: string): SummarizerChoice | null;
  toManifest(): PolicyManifest;
  toJSON(): PolicyManifest;
}

const isPositiveWhole = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value > 0;
const count = (name: string) =>
  z.custom<number>(isPositiveWhole, {
    error: (issue) => (issue.input === undefined ? `${name} is required (a positive whole number)` : `${name} must be a positive whole number, not ${describeValue(issue.input)}`),
  });
const DisabledOptions = z.strictObject({ maxTurns: count('maxTurns') });
const LocalSummarizerOptions = z.strictObject({ model: z.string().min(1), apiKey: z.string().optional() });
const TurnCapOptions = z.strictObject({ maxTurns: count('maxTurns'), maxTokensPerTurn: count('maxTokensPerTurn') });
// Each scenario's factory checks what it needs; this checks what none of them would (an option a scenario leaves unused).
const ScenarioOptions = z.strictObject({ maxTurns: count('maxTurns'), maxTokensPerTurn: count('maxTokensPerTurn'), model: z.string().min(1), apiKey: z.string() }).partial();
const BindOptions = z.strictObject({
  catalog: z.custom<ModelCatalog>((value) => typeof (value as ModelCatalog | undefined)?.contextWindow === 'function', { message: 'expected a ModelCatalog' }).optional(),
  reserveTokens: z.number().int().nonnegative().optional(),
});

function parse<S extends z.ZodType>(schema: S, input: unknown, entryPoint: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const option = issue.path.map(String).join('.') || '(options)';
  throw new CompactionPolicyError(`${entryPoint}: option "${option}" is invalid: ${issue.message}`);
}

const fmt = (n: number) => n.toLocaleString('en-US');

function resolveBinding(kind: string, model: string | { id: string; contextWindow: number }, bind: BindOptions): PolicyBinding {
  const options = parse(BindOptions, bind, `CompactionPolicy.${kind}.bindTo`);
  const reserveTokens = options.reserveTokens ?? DEFAULT_COMPACTION_SETTINGS.reserveTokens;
  const where = `CompactionPolicy.${kind}.bindTo`;
  const id: unknown = typeof model === 'string' ? model : (model as { id?: unknown } | null)?.id;
  if (typeof id !== 'string' || id === '') {
    // Named as given: a number passed for the model is "42", an object with a bad id says so.
    const given = typeof model === 'object' && model !== null ? `an object whose id is ${describeValue(id)}` : describeValue(model);
    throw new CompactionPolicyError(`${where}: the model must be a model id or {id, contextWindow}, not ${given}`);
  }
  const contextWindow: unknown = typeof model === 'string' ? (options.catalog ?? defaultModelCatalog).contextWindow(model) : model.contextWindow;
  if (contextWindow === undefined) {
    throw new CompactionPolicyError(`${where}: the context window of "${id}" is unknown; pass {id, contextWindow} or a catalog that knows it`);
  }
  // A NaN window would pass every comparison below: `budget <= 0` and `required > budget` are both false.
  if (!isPositiveWhole(contextWindow)) {
    throw new CompactionPolicyError(`${where}: contextWindow of "${id}" must be a positive whole number of tokens, not ${describeValue(contextWindow)}`);
  }
  const budget = contextWindow - reserveTokens;
  if (budget <= 0) {
    throw new CompactionPolicyError(
      `CompactionPolicy.${kind}.bindTo: the reserve of ${fmt(reserveTokens)} tokens fills the whole ${fmt(contextWindow)}-token window of "${id}"`,
    );
  }
  return { model: id, contextWindow, reserveTokens, budget, required: undefined };
}

function checkTurn(kind: string, n: number, maxTurns: number): void {
  if (!Number.isInteger(n) || n < 1) throw new CompactionPolicyViolation(`${kind}: turn number ${n} is not a positive integer`, { kind: 'bad_turn_number', turn: n });
  if (n > maxTurns) throw new CompactionPolicyViolation(`${kind}: turn ${n} exceeds the cap of ${maxTurns} turns`, { kind: 'turn_cap', turn: n, maxTurns });
}

/** An observation a host made of its context, refused when a count is not one: NaN compares false with every limit. */
function checkObservation(kind: string, observation: ContextObservation): void {
  const where = `CompactionPolicy.${kind}.observeContext`;
  const { turnsUsed, contextTokens, contextWindow } = (observation ?? {}) as Partial<Record<keyof ContextObservation, unknown>>;
  if (!(typeof contextTokens === 'number' && Number.isFinite(contextTokens) && contextTokens >= 0)) {
    throw new CompactionPolicyError(`${where}: contextTokens must be a finite number of tokens, 0 or more, not ${describeValue(contextTokens)}`);
  }
  if (!isPositiveWhole(contextWindow)) throw new CompactionPolicyError(`${where}: contextWindow must be a positive whole number of tokens, not ${describeValue(contextWindow)}`);
  if (!(typeof turnsUsed === 'number' && Number.isInteger(turnsUsed) && turnsUsed >= 0)) {
    throw new CompactionPolicyError(`${where}: turnsUsed must be a whole number of turns, 0 or more, not ${describeValue(turnsUsed)}`);
  }
}

function checkFits(kind: string, observation: ContextObservation, reserveTokens: number): void {
  checkObservation(kind, observation);
  const { contextTokens, contextWindow } = observation;
  const limit = contextWindow - reserveTokens;
  if (contextTokens > limit) {
    throw new CompactionPolicyViolation(
      `${kind}: the context holds ${fmt(contextTokens)} tokens, over the window of ${fmt(contextWindow)} minus the reserve of ${fmt(reserveTokens)} (${fmt(limit)}), and this policy does not compact`,
      { kind: 'context_over_window', contextTokens, limit, contextWindow, reserveTokens },
    );
  }
}

function policy(kind: CompactionPolicyKind, parts: Omit<CompactionPolicy, 'kind' | 'toJSON'>): CompactionPolicy {
  return Object.freeze({ kind, ...parts, toJSON: parts.toManifest });
}

export const CompactionPolicy = {
  /**
   * No compaction at all. The premise: a session of at most `maxTurns` turns fits the window, so
   * each turn is admitted up to the cap and the context must stay under `window - reserve`.
   */
  disabled(options: { maxTurns: number }): CompactionPolicy {
    const { maxTurns } = parse(DisabledOptions, options, 'CompactionPolicy.disabled');
    let reserveTokens = DEFAULT_COMPACTION_SETTINGS.reserveTokens;
    return policy('disabled', {
      bindTo(model, bind = {}) {
        const binding = resolveBinding('disabled', model, bind);
        reserveTokens = binding.reserveTokens;
        return binding;
      },
      admitTurn: (n) => checkTurn('disabled', n, maxTurns),
      observeContext: (observation) => checkFits('disabled', observation, reserveTokens),
      summarizerFor: () => null,
      toManifest: () => ({ policy: 'disabled', maxTurns }),
    });
  },

  /**
   * Compaction by summary, written by a separate (typically local) model, so the conversation is
   * summarized without a call to the session's provider. Turns are unbounded; the premise is that
   * compaction keeps the context inside the whole window.
   */
  localSummarizer(options: { model: string; apiKey?: string | undefined }): CompactionPolicy {
    const { model } = parse(LocalSummarizerOptions, options, 'CompactionPolicy.localSummarizer');
    const apiKey = options.apiKey; // kept in this closure only: never in the manifest or JSON
    return policy('localSummarizer', {
      bindTo: (sessionModel, bind = {}) => resolveBinding('localSummarizer', sessionModel, bind),
      admitTurn: (n) => checkTurn('localSummarizer', n, Number.POSITIVE_INFINITY),
      observeContext: (observation) => checkFits('localSummarizer', observation, 0),
      summarizerFor: (sessionModel) => ({ model, apiKey, separate: model !== sessionModel }),
      toManifest: () => ({ policy: 'localSummarizer', model, apiKey: apiKey ? 'provided' : 'absent' }),
    });
  },

  /**
   * No compaction because none can be needed: at most `maxTurns` turns of at most
   * `maxTokensPerTurn` each, proved at `bindTo` to fit `window - reserve`. Each observation checks
   * that the turns so far kept to their budget.
   */
  turnCap(options: { maxTurns: number; maxTokensPerTurn: number }): CompactionPolicy {
    const { maxTurns, maxTokensPerTurn } = parse(TurnCapOptions, options, 'CompactionPolicy.turnCap');
    let reserveTokens = DEFAULT_COMPACTION_SETTINGS.reserveTokens;
    return policy('turnCap', {
      bindTo(model, bind = {}) {
        const binding = resolveBinding('turnCap', model, bind);
        const required = maxTurns * maxTokensPerTurn;
        if (required > binding.budget) {
          throw new CompactionPolicyError(
            `CompactionPolicy.turnCap.bindTo: ${fmt(maxTurns)} turns x ${fmt(maxTokensPerTurn)} tokens per turn = ${fmt(required)} tokens, more than the ${fmt(binding.contextWindow)}-token window of "${binding.model}" minus the reserve of ${fmt(binding.reserveTokens)} = ${fmt(binding.budget)}`,
          );
        }
        reserveTokens = binding.reserveTokens;
        return { ...binding, required };
      },
      admitTurn: (n) => checkTurn('turnCap', n, maxTurns),
      observeContext(observation) {
        checkObservation('turnCap', observation);
        const allowed = observation.turnsUsed * maxTokensPerTurn;
        if (observation.contextTokens > allowed) {
          throw new CompactionPolicyViolation(
            `turnCap: ${fmt(observation.contextTokens)} tokens after ${observation.turnsUsed} turns exceed ${observation.turnsUsed} x ${fmt(maxTokensPerTurn)} = ${fmt(allowed)}`,
            { kind: 'turn_budget', contextTokens: observation.contextTokens, limit: allowed, turnsUsed: observation.turnsUsed, maxTokensPerTurn },
          );
        }
        checkFits('turnCap', observation, reserveTokens);
      },
      summarizerFor: (sessionModel) => ({ model: sessionModel, separate: false }),
      toManifest: () => ({ policy: 'turnCap', maxTurns, maxTokensPerTurn }),
    });
  },
};

/** The scenario letters: A = compaction disabled, B = local summarizer, C = turn cap. */
export const POLICY_SCENARIOS = {
  A: 'disabled',
  B: 'localSummarizer',
  C: 'turnCap',
} as const satisfies Record<string, CompactionPolicyKind>;
export type PolicyScenario = keyof typeof POLICY_SCENARIOS;

export interface ScenarioOptions {
  maxTurns?: number | undefined;
  maxTokensPerTurn?: number | undefined;
  model?: string | undefined;
  apiKey?: string | undefined;
}

/** The policy of a scenario letter; its factory checks the options it needs. */
export function policyForScenario(letter: string, options: ScenarioOptions = {}): CompactionPolicy {
  try {
    return scenarioPolicy(letter, parse(ScenarioOptions, options, `policyForScenario("${letter}")`));
  } catch (error) {
    // The factory names itself; say too which call gave it the options.
    if (CompactionPolicyError.isInstance(error) && !error.message.startsWith('policyForScenario')) throw new CompactionPolicyError(`policyForScenario("${letter}") -> ${error.message}`);
    throw error;
  }
}

function scenarioPolicy(letter: string, options: ScenarioOptions): CompactionPolicy {
  switch (letter) {
    case 'A':
      return CompactionPolicy.disabled({ maxTurns: options.maxTurns as number });
    case 'B':
      return CompactionPolicy.localSummarizer({ model: options.model as string, apiKey: options.apiKey });
    case 'C':
      return CompactionPolicy.turnCap({ maxTurns: options.maxTurns as number, maxTokensPerTurn: options.maxTokensPerTurn as number });
    default:
      throw new CompactionPolicyError(
        `policyForScenario: unknown scenario "${letter}"; known: ${Object.entries(POLICY_SCENARIOS)
          .map(([key, kind]) => `${key} (${kind})`)
          .join(', ')}`,
      );
  }
}
