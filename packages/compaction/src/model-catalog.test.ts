import { describe, expect, it } from 'vitest';
import { CompactionConfigError } from './errors/index.js';
import { createModelCatalog, defaultModelCatalog } from './model-catalog.js';

describe('ModelCatalog', () => {
  it('knows current OpenAI, Anthropic and Google models, by bare id, provider/id, dated or -latest id', () => {
    expect(defaultModelCatalog.contextWindow('gpt-4o')).toBe(128_000);
    expect(defaultModelCatalog.contextWindow('openai/gpt-5.1-codex')).toBe(400_000);
    expect(defaultModelCatalog.contextWindow('gpt-4.1')).toBe(1_047_576);
    expect(defaultModelCatalog.contextWindow('anthropic/claude-sonnet-4-5-20250929')).toBe(200_000);
    expect(defaultModelCatalog.contextWindow('claude-opus-4-1')).toBe(200_000);
    expect(defaultModelCatalog.contextWindow('google/gemini-2.5-pro')).toBe(1_048_576);
    expect(defaultModelCatalog.contextWindow('gemini-2.5-flash-latest')).toBe(1_048_576);
    expect(defaultModelCatalog.contextWindow('llama-3.3-70b')).toBeUndefined();
  });

  it('takes more models, or other windows for known ones, without changing the original', () => {
    const mine = defaultModelCatalog.with({ 'llama-3.3-70b': 131_072, 'gpt-4o': 64_000 });
    expect(mine.contextWindow('ollama/llama-3.3-70b')).toBe(131_072);
    expect(mine.contextWindow('gpt-4o')).toBe(64_000);
    expect(defaultModelCatalog.contextWindow('gpt-4o')).toBe(128_000);
    expect(mine.ids()).toContain('llama-3.3-70b');
  });

  it('names the unknown model and the entry point when a window is required', () => {
    expect(() => defaultModelCatalog.requireContextWindow('mystery-1', 'createAgent')).toThrow(CompactionConfigError);
    expect(() => defaultModelCatalog.requireContextWindow('mystery-1', 'createAgent')).toThrow(/^createAgent: option "contextWindow" is required: .*"mystery-1"/);
    // Before: a bare TypeError, "Cannot read properties of undefined (reading 'includes')".
    expect(() => defaultModelCatalog.requireContextWindow(undefined as never, 'createAgent')).toThrow(CompactionConfigError);
    expect(() => defaultModelCatalog.requireContextWindow(undefined as never, 'createAgent')).toThrow(/^createAgent: option "model" is invalid: expected a model id \(a non-empty string\), not undefined$/);
    expect(() => defaultModelCatalog.contextWindow(7 as never)).toThrow(/^ModelCatalog\.contextWindow: option "model" is invalid: expected a model id \(a non-empty string\), not 7$/);
    expect(() => createModelCatalog({ tiny: 0 })).toThrow(/createModelCatalog: option "tiny" is invalid/);
  });
});
