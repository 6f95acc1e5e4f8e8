import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import {
  CompactionPolicy,
  compactionSettings,
  createModelCatalog,
  createTokenLedger,
  NoOpCompactor,
  policyForScenario,
  TillerCompactionError,
  WindowManager,
} from '@tiller/compaction';
import { connect, DurableError, durableServices } from '@tiller/restate';
import { createSessionLog, JsonlStore, type SessionLog } from '@tiller/session';
import {
  agentPaths,
  generatePiSession,
  runPath,
  scriptedLanguageModel,
  scriptedModel,
  scriptedSummarizer,
  startOpenAICompatibleServer,
} from '@tiller/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAgent,
  defineTool,
  fileJournal,
  fromLanguageModel,
  type JournalLine,
  memoryJournal,
  modelSummarizer,
  replayJournal,
  resumeAgent,
  ShellError,
} from '../../src/index.js';
import { recordingTools } from '../helpers.js';

/**
 * Options objects of every public function that takes one, in @tiller/shell, @tiller/compaction,
 * @tiller/testing and @tiller/restate (what it checks before any server is involved): a valid object with one to
 * three options set to junk, removed, or misspelt, or junk in place of the whole object. Each call
 * works, or throws its package's typed error naming the function and an option that was changed;
 * a refused call writes nothing.
 */
const SEED = 20_261_212;
const RUNS = 60;

let dir: string;
let sessionFile: string;
let session: SessionLog;
let sessionBytes: Buffer;
let journalLines: JournalLine[];
beforeAll(async () => {
  const journal = memoryJournal();
  await createAgent({ model: scriptedModel([{ text: 'hi' }]), journal }).prompt('hello');
  journalLines = [...journal.lines];
  dir = await mkdtemp(join(tmpdir(), 'tiller-fuzz-options-'));
  sessionFile = join(dir, 'chat.jsonl');
  session = createSessionLog(await JsonlStore.open(sessionFile, { create: true }));
  await session.append([{ id: 'u1', parentId: null, at: '2026-12-01T00:00:00.000Z', kind: 'message', message: { role: 'user', content: 'hello' } }]);
  sessionBytes = await readFile(sessionFile);
});
afterAll(async () => {
  await session.store.close?.();
  await rm(dir, { recursive: true, force: true });
});

/** Values that are wrong for most options, and a few that are right for some. */
const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(undefined, null, Number.NaN, Infinity, -Infinity, -1, 0, 0.5, 2 ** 53, '', 'no', true, false, [], {}, () => {}, Symbol('junk'), 10n),
  fc.string({ maxLength: 8 }),
  fc.integer({ min: -1000, max: 1000 }),
  fc.array(fc.anything({ maxDepth: 1 }), { maxLength: 2 }),
  fc.object({ maxDepth: 1, maxKeys: 2 }),
);

type Change = { kind: 'set'; key: string; value: unknown } | { kind: 'delete'; key: string } | { kind: 'typo'; key: string; value: unknown };
type Changed = { whole: unknown } | { changes: Change[] };

/** A valid options object changed at one to three of `keys` (dotted paths into nested options), or junk instead of it. */
function changedOptions(keys: readonly string[]): fc.Arbitrary<Changed> {
  const change: fc.Arbitrary<Change> = fc.oneof(
    fc.record({ kind: fc.constant('set' as const), key: fc.constantFrom(...keys), value: junk }),
    fc.record({ kind: fc.constant('delete' as const), key: fc.constantFrom(...keys) }),
    fc.record({ kind: fc.constant('typo' as const), key: fc.constantFrom(...keys), value: junk }),
  );
  return fc.oneof(
    { weight: 1, arbitrary: junk.map((whole) => ({ whole })) },
    { weight: 8, arbitrary: fc.array(change, { minLength: 1, maxLength: 3 }).map((changes) => ({ changes })) },
  );
}

function apply(valid: Record<string, unknown>, changed: Changed): unknown {
  if ('whole' in changed) return changed.whole;
  const options: Record<string, unknown> = { ...valid };
  for (const change of changed.changes) {
    const path = change.key.split('.');
    let at = options;
    for (const key of path.slice(0, -1)) {
      const inner = at[key];
      at[key] = typeof inner === 'object' && inner !== null && !Array.isArray(inner) ? { ...inner } : {};
      at = at[key] as Record<string, unknown>;
    }
    const last = path.at(-1)!;
    if (change.kind === 'set') at[last] = change.value;
    else if (change.kind === 'delete') delete at[last];
    // A misspelt name: the letters of the key in another case, or with one more.
    else at[`${last.toLowerCase() === last ? last.toUpperCase() : last.toLowerCase()}`] = change.value;
  }
  return options;
}

/** Words the error may use for a changed option: the option's own name (for a typo, its misspelling). */
function namesFor(changed: Changed): string[] {
  if ('whole' in changed) return [];
  return changed.changes.map((c) => {
    const last = c.key.split('.').at(-1)!;
    return c.kind === 'typo' ? (last.toLowerCase() === last ? last.toUpperCase() : last.toLowerCase()) : last;
  });
}

/**
 * What an option takes, so that a call that accepted a wrong value is caught too: `custom` is an
 * object of the package's own (a model, a session, a tool), which no junk value is; `list` an
 * array of those (so only an empty one among junk).
 */
type Kind = 'custom' | 'list' | 'fn' | 'str' | 'text' | 'bool' | 'int+' | 'int0' | 'obj' | 'any';
function fits(kind: Kind, value: unknown): boolean {
  switch (kind) {
    case 'custom':
      return false;
    case 'list':
      return Array.isArray(value) && value.length === 0;
    case 'fn':
      return typeof value === 'function';
    case 'str':
      return typeof value === 'string';
    case 'text':
      return typeof value === 'string' && value.trim() !== '';
    case 'bool':
      return typeof value === 'boolean';
    case 'int+':
      return Number.isSafeInteger(value) && (value as number) > 0;
    case 'int0':
      return Number.isSafeInteger(value) && (value as number) >= 0;
    case 'obj':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'any':
      return true;
    default: {
      const unknown: never = kind;
      throw new Error(`unknown kind ${String(unknown)}`);
    }
  }
}

/** Why a call that succeeded should have refused `options` (the valid options with `changed` applied), if it should have. */
function shouldHaveRefused(target: Target, changed: Changed, options: unknown): string | undefined {
  if ('whole' in changed) {
    const empty = fits('obj', changed.whole) && Object.keys(changed.whole as object).length === 0 && (target.required ?? []).length === 0;
    const ok = ((changed.whole === undefined || empty) && target.optional) || (target.wholeKind !== undefined && fits(target.wholeKind, changed.whole));
    return ok ? undefined : `accepted ${show(changed.whole)} as its options`;
  }
  for (const change of changed.changes) {
    const path = change.key.split('.');
    const parent = path.slice(0, -1).reduce<unknown>((at, key) => (typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[key] : undefined), options);
    if (typeof parent !== 'object' || parent === null) continue;
    if (change.kind === 'typo') {
      if (target.strict !== false) return `accepted an unknown option (${change.key} misspelt)`;
      continue;
    }
    const last = path.at(-1)!;
    const present = Object.hasOwn(parent, last);
    const value = (parent as Record<string, unknown>)[last];
    const required = target.required?.includes(change.key) ?? false;
    if (!present && required) return `accepted options without ${change.key}`;
    if (present && !(value === undefined && !required) && !fits(target.spec[change.key]!, value)) return `accepted ${change.key} = ${show(value)}`;
  }
  return undefined;
}
const show = (value: unknown) => (typeof value === 'function' ? 'a function' : typeof value === 'symbol' || typeof value === 'bigint' ? String(value) : JSON.stringify(value) ?? String(value));

interface Target {
  /** The function, as its errors name it. */
  name: string;
  /** A valid options object. */
  valid: () => Record<string, unknown>;
  /** The options (dotted paths into nested objects), what each takes, and which are required. */
  spec: Readonly<Record<string, Kind>>;
  required?: readonly string[];
  /** Unknown options are refused (default true). */
  strict?: boolean;
  /** The whole options object may be left out. */
  optional?: boolean;
  /** What the whole argument may be instead of an object (modelSummarizer takes a model). */
  wholeKind?: Kind;
  call: (options: unknown) => unknown;
  /** The package's typed error. */
  typed: (error: unknown) => boolean;
  /** Releases what a successful call started (an agent, a server). */
  release?: (result: unknown) => Promise<void> | void;
}

const shellError = (e: unknown) => ShellError.isInstance(e);
const compactionError = (e: unknown) => TillerCompactionError.isInstance(e);
const restateError = (e: unknown) => DurableError.isInstance(e);
// @tiller/testing has no error class of its own: a bad option is a TypeError (or RangeError) naming it.
const testingError = (e: unknown) => e instanceof TypeError || e instanceof RangeError;

const LIMITS: Record<string, Kind> = {
  'limits.maxIterations': 'int0',
  'limits.maxToolConcurrency': 'int+',
  'limits.toolTimeoutMs': 'int+',
  'limits.maxToolOutputChars': 'int+',
  'limits.approvalTimeoutMs': 'int+',
  'limits.maxRetries': 'int0',
  'limits.retryBaseDelayMs': 'int0',
  'limits.retryMaxDelayMs': 'int0',
  'limits.firstTokenTimeoutMs': 'int+',
  'limits.streamIdleTimeoutMs': 'int+',
  'limits.compactionTimeoutMs': 'int+',
};
const AGENT: Record<string, Kind> = {
  model: 'custom',
  tools: 'list',
  compactor: 'custom',
  compactorOptions: 'any',
  session: 'custom',
  journal: 'custom',
  policy: 'fn',
  hooks: 'obj',
  'hooks.afterCompact': 'list',
  limits: 'obj',
  ...LIMITS,
  systemPrompt: 'str',
  compactionPolicy: 'custom',
  inspect: 'fn',
};
const journalFile = () => join(dir, 'chat.journal.jsonl');
const agentOptions = () => ({
  model: scriptedModel([{ text: 'hi' }], { contextWindow: 32_000 }),
  tools: [recordingTools().echo],
  session,
  journal: fileJournal(journalFile()),
  policy: () => ({ decision: 'allow' as const }),
  hooks: { afterCompact: [() => {}] },
  limits: { maxIterations: 3, toolTimeoutMs: 1_000 },
  systemPrompt: 'Be brief.',
  compactor: NoOpCompactor,
  compactorOptions: {},
  compactionPolicy: CompactionPolicy.disabled({ maxTurns: 10 }),
  inspect: () => {},
});
const closeAgent = async (agent: unknown) => (agent as { close(): Promise<void> }).close();

const languageModel = createOpenAICompatible({ name: 'local', baseURL: 'http://127.0.0.1:9/v1' }).chatModel('m');
const summarizer = scriptedSummarizer();

const targets: Target[] = [
  // @tiller/shell
  { name: 'createAgent', valid: agentOptions, spec: AGENT, required: ['model'], call: (o) => createAgent(o as never), typed: shellError, release: closeAgent },
  {
    name: 'resumeAgent',
    valid: () => ({ ...agentOptions(), listener: () => {} }),
    spec: { ...AGENT, listener: 'fn' },
    required: ['model', 'session', 'journal'],
    call: (o) => resumeAgent(o as never),
    typed: shellError,
    release: closeAgent,
  },
  { name: 'fileJournal', valid: () => ({ durability: 'never' }), spec: { durability: 'custom' }, optional: true, call: (o) => fileJournal(journalFile(), o as never), typed: shellError },
  {
    name: 'fromLanguageModel',
    valid: () => ({ contextWindow: 8_000, id: 'local/m', callSettings: { temperature: 0 } }),
    spec: { contextWindow: 'int+', id: 'text', callSettings: 'obj' },
    optional: true,
    call: (o) => fromLanguageModel(languageModel, o as never),
    typed: shellError,
  },
  { name: 'modelSummarizer', valid: () => scriptedModel([]) as never, spec: { id: 'text', stream: 'fn', contextWindow: 'int+' }, required: ['id', 'stream'], strict: false, call: (o) => modelSummarizer(o as never), typed: shellError },
  {
    name: 'defineTool',
    valid: () => ({ name: 'echo', description: 'Echoes.', input: recordingTools().echo.input, execute: () => 'x', timeoutMs: 100, sequential: false, idempotent: true }),
    spec: { name: 'custom', description: 'text', input: 'custom', execute: 'fn', timeoutMs: 'int+', sequential: 'bool', idempotent: 'bool' },
    required: ['name', 'description', 'input', 'execute'],
    call: (o) => defineTool(o as never),
    typed: shellError,
  },
  { name: 'replayJournal', valid: () => ({ session, segments: 'all' }), spec: { session: 'custom', base: 'custom', segments: 'custom' }, optional: true, call: (o) => replayJournal(journalLines, o as never), typed: shellError },
  // @tiller/compaction
  {
    name: 'WindowManager',
    valid: () => ({ strategy: 'summarize', contextWindow: 32_000, reserveTokens: 1_000, keepRecentTokens: 2_000, summarizer, customInstructions: 'short', placeholder: '[cleared]', newId: () => 'id', now: () => new Date(0) }),
    spec: { strategy: 'custom', contextWindow: 'int+', reserveTokens: 'int0', keepRecentTokens: 'int+', summarizer: 'custom', catalog: 'custom', fileTools: 'custom', counter: 'custom', customInstructions: 'str', placeholder: 'text', newId: 'fn', now: 'fn' },
    required: ['strategy', 'summarizer'],
    call: (o) => WindowManager(o as never),
    typed: compactionError,
  },
  {
    name: 'compactionSettings',
    valid: () => ({ enabled: true, reserveTokens: 1_000, keepRecentTokens: 2_000 }),
    spec: { enabled: 'bool', reserveTokens: 'int0', keepRecentTokens: 'int+' },
    optional: true,
    call: (o) => compactionSettings(o as never),
    typed: compactionError,
  },
  { name: 'CompactionPolicy.disabled', valid: () => ({ maxTurns: 5 }), spec: { maxTurns: 'int+' }, required: ['maxTurns'], call: (o) => CompactionPolicy.disabled(o as never), typed: compactionError },
  { name: 'CompactionPolicy.localSummarizer', valid: () => ({ model: 'gpt-4o-mini', apiKey: 'k' }), spec: { model: 'text', apiKey: 'str' }, required: ['model'], call: (o) => CompactionPolicy.localSummarizer(o as never), typed: compactionError },
  { name: 'CompactionPolicy.turnCap', valid: () => ({ maxTurns: 5, maxTokensPerTurn: 1_000 }), spec: { maxTurns: 'int+', maxTokensPerTurn: 'int+' }, required: ['maxTurns', 'maxTokensPerTurn'], call: (o) => CompactionPolicy.turnCap(o as never), typed: compactionError },
  {
    name: 'bindTo',
    valid: () => ({ reserveTokens: 1_000, catalog: createModelCatalog({ m: 8_000 }) }),
    spec: { reserveTokens: 'int0', catalog: 'custom' },
    optional: true,
    call: (o) => CompactionPolicy.disabled({ maxTurns: 5 }).bindTo({ id: 'm', contextWindow: 64_000 }, o as never),
    typed: compactionError,
  },
  {
    name: 'policyForScenario',
    valid: () => ({ maxTurns: 5, maxTokensPerTurn: 1_000, model: 'gpt-4o-mini', apiKey: 'k' }),
    spec: { maxTurns: 'int+', maxTokensPerTurn: 'int+', model: 'text', apiKey: 'str' },
    optional: true,
    call: (o) => policyForScenario('C', o as never),
    typed: compactionError,
  },
  { name: 'createTokenLedger', valid: () => ({}), spec: { counter: 'custom' }, optional: true, call: (o) => createTokenLedger([], o as never).estimate(), typed: compactionError },
  { name: 'createModelCatalog', valid: () => ({ 'local/m': 8_000 }), spec: { 'local/m': 'int+' }, strict: false, optional: true, call: (o) => createModelCatalog(o as never).contextWindow('local/m'), typed: compactionError },
  // @tiller/testing
  { name: 'scriptedModel', valid: () => ({ id: 'm', contextWindow: 8_000 }), spec: { id: 'text', contextWindow: 'int+' }, optional: true, call: (o) => scriptedModel([], o as never), typed: testingError },
  { name: 'scriptedLanguageModel', valid: () => ({ modelId: 'm' }), spec: { modelId: 'text' }, optional: true, call: (o) => scriptedLanguageModel([], o as never), typed: testingError },
  {
    name: 'scriptedSummarizer',
    valid: () => ({ model: 'm', contextWindow: 8_000, hold: false, reply: () => 'summary', usagePerCall: 100 }),
    spec: { model: 'text', contextWindow: 'int+', hold: 'bool', reply: 'fn', usagePerCall: 'int0' },
    optional: true,
    call: (o) => scriptedSummarizer(o as never),
    typed: testingError,
  },
  {
    name: 'startOpenAICompatibleServer',
    valid: () => ({ script: [{ stream: { text: 'hi' } }] }),
    spec: { script: 'list' },
    required: ['script'],
    call: (o) => startOpenAICompatibleServer(o as never),
    typed: testingError,
    release: (server) => (server as { close(): Promise<void> }).close(),
  },
  {
    name: 'agentPaths',
    valid: () => ({ iterations: 1, maxLength: 4, hostActions: false, crashes: false, faults: [], seed: 1 }),
    spec: { tools: 'list', policy: 'obj', arbitraries: 'obj', iterations: 'int0', maxLength: 'int0', faults: 'list', hostActions: 'bool', crashes: 'bool', exhaustive: 'bool', seed: 'int0' },
    optional: true,
    call: (o) => agentPaths(o as never),
    typed: testingError,
  },
  {
    name: 'runPath',
    valid: () => ({ stepTimeoutMs: 500, toolTimeoutMs: 40, approvalTimeoutMs: 40, abortGraceMs: 20, invariants: [] }),
    spec: { stepTimeoutMs: 'int+', toolTimeoutMs: 'int+', approvalTimeoutMs: 'int+', abortGraceMs: 'int0', invariants: 'list' },
    optional: true,
    call: (o) => runPath(agentPaths({ tools: [], hostActions: false, crashes: false, faults: [] })[0]!, () => ({}), o as never),
    typed: testingError,
  },
  {
    name: 'generatePiSession',
    valid: () => ({ seed: 1, format: 3, turns: 2, longLastTurn: false, rich: false, compactions: false, shellCommands: false }),
    spec: { seed: 'int0', format: 'custom', turns: 'int0', longLastTurn: 'bool', rich: 'bool', compactions: 'bool', shellCommands: 'bool' },
    required: ['seed', 'format'],
    call: (o) => generatePiSession(o as never),
    typed: testingError,
  },
  // @tiller/restate: what it checks before any server is involved
  {
    name: 'durableServices',
    valid: () => ({ model: scriptedModel([]), tools: [recordingTools().echo], name: 'Chat', limits: { maxIterations: 3 }, inactivityTimeoutMs: 60_000 }),
    spec: {
      model: 'custom',
      tools: 'list',
      policy: 'fn',
      systemPrompt: 'str',
      compactor: 'custom',
      compactorOptions: 'any',
      hooks: 'obj',
      limits: 'obj',
      ...LIMITS,
      name: 'text',
      sessionLog: 'fn',
      onEvent: 'fn',
      inactivityTimeoutMs: 'int+',
      abortTimeoutMs: 'int+',
    },
    required: ['model'],
    call: (o) => durableServices(o as never),
    typed: restateError,
  },
  { name: 'connect', valid: () => ({ ingressUrl: 'http://127.0.0.1:8080', name: 'Chat' }), spec: { ingressUrl: 'custom', name: 'text' }, required: ['ingressUrl'], call: (o) => connect(o as never), typed: restateError },
];

describe('fuzzing options', () => {
  it.each(targets.map((t) => [t.name, t] as const))('%s: works, or throws its typed error naming the function and a changed option; nothing written', async (_name, target) => {
    await fc.assert(
      fc.asyncProperty(changedOptions(Object.keys(target.spec)), async (changed) => {
        const options = apply(target.valid(), changed);
        let result: unknown;
        try {
          result = await target.call(options);
        } catch (error) {
          if (!target.typed(error)) throw new Error(`${target.name}: not its package's typed error: ${String(error)}`, { cause: error });
          const message = (error as Error).message;
          const entryPoint = target.name.split('.').at(-1)!;
          if (!message.includes(entryPoint)) throw new Error(`${target.name}: "${message}" does not name the function`);
          const names = namesFor(changed);
          if (names.length > 0 && !names.some((n) => message.includes(n))) throw new Error(`${target.name}: "${message}" names none of the changed options ${names.join(', ')}`);
          // Nothing written: the session file is as it was, and no journal appeared.
          expect(await readFile(sessionFile)).toEqual(sessionBytes);
          expect(existsSync(journalFile())).toBe(false);
          return;
        }
        await target.release?.(result);
        const wrong = shouldHaveRefused(target, changed, options);
        if (wrong) throw new Error(`${target.name}: ${wrong}`);
        expect(await readFile(sessionFile)).toEqual(sessionBytes);
        expect(existsSync(journalFile())).toBe(false);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  }, 30_000);
});
