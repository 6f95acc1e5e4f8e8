import { describe, expect, it } from 'vitest';
import { CompactionPolicyError, CompactionPolicyViolation, TillerCompactionError } from './errors/index.js';
import { CompactionPolicy, policyForScenario } from './policy.js';

const SECRET = 'sk-proj-Zx81mQvT3nLw0aB7cD9eF2gH4iJ6kL8mN0pQ2rS4tU6vW8xY';

describe('CompactionPolicy.turnCap', () => {
  const policy = CompactionPolicy.turnCap({ maxTurns: 20, maxTokensPerTurn: 8000 });

  it('proves turns x tokens per turn fit the window minus the reserve', () => {
    expect(policy.bindTo('claude-sonnet-4-5')).toEqual({
      model: 'claude-sonnet-4-5',
      contextWindow: 200_000,
      reserveTokens: 16_384,
      budget: 183_616,
      required: 160_000,
    });
  });

  it('refuses a model too small for the cap, with the numbers', () => {
    expect(() => policy.bindTo('gpt-4o')).toThrow(CompactionPolicyError);
    expect(() => policy.bindTo('gpt-4o')).toThrow(
      'CompactionPolicy.turnCap.bindTo: 20 turns x 8,000 tokens per turn = 160,000 tokens, more than the 128,000-token window of "gpt-4o" minus the reserve of 16,384 = 111,616',
    );
    expect(() => policy.bindTo({ id: 'local', contextWindow: 170_000 }, { reserveTokens: 20_000 })).toThrow(/= 150,000$/);
    expect(() => policy.bindTo('unheard-of')).toThrow(/context window of "unheard-of" is unknown/);
  });

  it('admits turns up to the cap and checks each turn kept its budget', () => {
    expect(() => policy.admitTurn(20)).not.toThrow();
    expect(() => policy.admitTurn(21)).toThrow(CompactionPolicyViolation);
    expect(() => policy.admitTurn(21)).toThrow('turnCap: turn 21 exceeds the cap of 20 turns');
    expect(() => policy.observeContext({ turnsUsed: 3, contextTokens: 24_000, contextWindow: 200_000 })).not.toThrow();
    expect(() => policy.observeContext({ turnsUsed: 3, contextTokens: 24_001, contextWindow: 200_000 })).toThrow(
      'turnCap: 24,001 tokens after 3 turns exceed 3 x 8,000 = 24,000',
    );
  });

  it('carries the numbers of a broken premise, not only a message', () => {
    const caught = (fn: () => void) => {
      try {
        fn();
      } catch (error) {
        return error;
      }
      throw new Error('expected a violation');
    };
    const cap = caught(() => policy.admitTurn(21));
    expect(CompactionPolicyViolation.isInstance(cap) && cap.facts).toEqual({ kind: 'turn_cap', turn: 21, maxTurns: 20 });
    const budget = caught(() => policy.observeContext({ turnsUsed: 3, contextTokens: 24_001, contextWindow: 200_000 }));
    expect(CompactionPolicyViolation.isInstance(budget) && budget.facts).toEqual({ kind: 'turn_budget', contextTokens: 24_001, limit: 24_000, turnsUsed: 3, maxTokensPerTurn: 8000 });
    expect(TillerCompactionError.isInstance(budget) && budget.code).toBe('policy_violated');
    expect(CompactionPolicyError.isInstance(budget)).toBe(false);
  });

  it('summarizes with the session model if an overflow ever forces a compaction', () => {
    expect(policy.summarizerFor('gpt-5')).toEqual({ model: 'gpt-5', separate: false });
    expect(policy.toManifest()).toEqual({ policy: 'turnCap', maxTurns: 20, maxTokensPerTurn: 8000 });
  });
});

describe('CompactionPolicy.disabled', () => {
  const policy = CompactionPolicy.disabled({ maxTurns: 5 });

  it('never summarizes, caps turns and requires the context to fit', () => {
    expect(policy.summarizerFor('gpt-5')).toBeNull();
    expect(() => policy.admitTurn(6)).toThrow(CompactionPolicyViolation);
    policy.bindTo({ id: 'small', contextWindow: 50_000 }, { reserveTokens: 10_000 });
    expect(() => policy.observeContext({ turnsUsed: 2, contextTokens: 40_000, contextWindow: 50_000 })).not.toThrow();
    expect(() => policy.observeContext({ turnsUsed: 2, contextTokens: 40_001, contextWindow: 50_000 })).toThrow(
      /disabled: the context holds 40,001 tokens, over the window of 50,000 minus the reserve of 10,000 \(40,000\)/,
    );
    expect(JSON.parse(JSON.stringify(policy))).toEqual({ policy: 'disabled', maxTurns: 5 });
  });

  it('rejects a bad option by name', () => {
    expect(() => CompactionPolicy.disabled({ maxTurns: 0 })).toThrow(/CompactionPolicy.disabled: option "maxTurns" is invalid/);
    expect(() => CompactionPolicy.turnCap({ maxTurns: 3 } as never)).toThrow(/option "maxTokensPerTurn"/);
  });
});

describe('a policy given numbers that are not counts', () => {
  const policies = (maxTokensPerTurn = 1_000_000) => [
    CompactionPolicy.disabled({ maxTurns: 10 }),
    CompactionPolicy.localSummarizer({ model: 'ollama/qwen3:8b' }),
    CompactionPolicy.turnCap({ maxTurns: 10, maxTokensPerTurn }),
  ];

  it('bindTo refuses a window that is not a positive whole number, naming the function and the field', () => {
    for (const policy of policies()) {
      for (const contextWindow of [Number.NaN, '128000', -1, 0, 1.5, Number.POSITIVE_INFINITY]) {
        const bind = () => policy.bindTo({ id: 'my-local-model', contextWindow: contextWindow as number });
        expect(bind).toThrow(CompactionPolicyError);
        expect(bind).toThrow(
          new RegExp(`^CompactionPolicy\\.${policy.kind}\\.bindTo: contextWindow of "my-local-model" must be a positive whole number of tokens, not `),
        );
      }
    }
    const catalog = { contextWindow: () => Number.NaN, requireContextWindow: () => Number.NaN, with: () => catalog } as never;
    expect(() => CompactionPolicy.disabled({ maxTurns: 3 }).bindTo('odd-model', { catalog })).toThrow(/bindTo: contextWindow of "odd-model" must be a positive whole number of tokens, not NaN/);
  });

  it('bindTo names what it was given in place of a model, not its missing id', () => {
    for (const policy of policies()) {
      const where = `CompactionPolicy.${policy.kind}.bindTo: the model must be a model id or {id, contextWindow}, not `;
      expect(() => policy.bindTo(42 as never)).toThrow(where + '42');
      expect(() => policy.bindTo(null as never)).toThrow(where + 'null');
      expect(() => policy.bindTo(undefined as never)).toThrow(where + 'undefined');
      expect(() => policy.bindTo('')).toThrow(where + 'a string ("")');
      expect(() => policy.bindTo({ id: 7, contextWindow: 1000 } as never)).toThrow(where + 'an object whose id is 7');
    }
  });

  it('observeContext refuses token counts that are not finite and 0 or more, naming the function and the field', () => {
    for (const policy of policies(1000)) {
      policy.bindTo({ id: 'm', contextWindow: 128_000 }, { reserveTokens: 1000 });
      const bad: Array<[Record<string, unknown>, string]> = [
        [{ turnsUsed: 1, contextTokens: Number.NaN, contextWindow: 128_000 }, 'contextTokens must be a finite number of tokens, 0 or more, not NaN'],
        [{ turnsUsed: 1, contextTokens: -5, contextWindow: 128_000 }, 'contextTokens must be a finite number of tokens, 0 or more, not -5'],
        [{ turnsUsed: 1, contextTokens: 1e9, contextWindow: Number.NaN }, 'contextWindow must be a positive whole number of tokens, not NaN'],
        [{ turnsUsed: 1, contextTokens: 1e9 }, 'contextWindow must be a positive whole number of tokens, not undefined'],
        [{ turnsUsed: Number.NaN, contextTokens: 10, contextWindow: 128_000 }, 'turnsUsed must be a whole number of turns, 0 or more, not NaN'],
      ];
      for (const [observation, said] of bad) {
        const observe = () => policy.observeContext(observation as never);
        expect(observe).toThrow(CompactionPolicyError);
        expect(observe).toThrow(`CompactionPolicy.${policy.kind}.observeContext: ${said}`);
      }
    }
  });

  it('says a bound that is not a positive whole number is that, not that it is no number', () => {
    expect(() => CompactionPolicy.disabled({ maxTurns: Number.POSITIVE_INFINITY })).toThrow(
      'CompactionPolicy.disabled: option "maxTurns" is invalid: maxTurns must be a positive whole number, not Infinity',
    );
    expect(() => CompactionPolicy.turnCap({ maxTurns: 3 } as never)).toThrow(/option "maxTokensPerTurn" is invalid: maxTokensPerTurn is required \(a positive whole number\)/);
  });
});

describe('CompactionPolicy.localSummarizer', () => {
  const policy = CompactionPolicy.localSummarizer({ model: 'ollama/qwen3:8b', apiKey: SECRET });

  it('hands its model and key to whoever builds the summarizer', () => {
    expect(policy.summarizerFor('anthropic/claude-sonnet-4-5')).toEqual({ model: 'ollama/qwen3:8b', apiKey: SECRET, separate: true });
    expect(() => policy.admitTurn(10_000)).not.toThrow();
    expect(() => policy.observeContext({ turnsUsed: 1, contextTokens: 200_001, contextWindow: 200_000 })).toThrow(CompactionPolicyViolation);
  });

  it('never writes the key into its manifest or its JSON', () => {
    const manifest = policy.toManifest();
    expect(manifest).toEqual({ policy: 'localSummarizer', model: 'ollama/qwen3:8b', apiKey: 'provided' });
    for (const text of [JSON.stringify(manifest), JSON.stringify(policy), JSON.stringify({ nested: [policy] }), String(Object.values(policy))]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain('sk-proj');
    }
    expect(CompactionPolicy.localSummarizer({ model: 'llama' }).toManifest()).toMatchObject({ apiKey: 'absent' });
  });
});

describe('policyForScenario', () => {
  it('maps A, B and C to their policies', () => {
    expect(policyForScenario('A', { maxTurns: 3 }).kind).toBe('disabled');
    expect(policyForScenario('B', { model: 'llama', apiKey: SECRET }).kind).toBe('localSummarizer');
    expect(policyForScenario('C', { maxTurns: 3, maxTokensPerTurn: 1000 }).toManifest()).toEqual({ policy: 'turnCap', maxTurns: 3, maxTokensPerTurn: 1000 });
  });

  it('throws on an unknown letter, listing the known ones, and on missing options', () => {
    expect(() => policyForScenario('D')).toThrow(CompactionPolicyError);
    expect(() => policyForScenario('D')).toThrow('policyForScenario: unknown scenario "D"; known: A (disabled), B (localSummarizer), C (turnCap)');
    expect(() => policyForScenario('a', { maxTurns: 3 })).toThrow(/unknown scenario "a"/);
    expect(() => policyForScenario('C', { maxTurns: 3 })).toThrow(/option "maxTokensPerTurn"/);
  });
});
