import { describe, expect, it } from 'vitest';
import { scriptedLanguageModel } from './scripted-language-model.js';

describe('scriptedLanguageModel refuses a script it cannot play, when it is made', () => {
  it.each([
    // Played an empty reply: the turn completed with no text, and nothing said why.
    ['a misspelt field', [{ txt: 'hello' }], /^scriptedLanguageModel: invalid script\[0\]:\n✖ Unrecognized key: "txt"$/],
    // Each of these failed the first call that reached it, as the model's fatal error.
    ['an unknown fault name', [{ text: 'a' }, 'timeout'], /^scriptedLanguageModel: invalid script\[1\]: unknown fault "timeout"; the faults are rate_limited, server_error, overflow, fatal, cut_stream$/],
    ['a step that is null', [null], /^scriptedLanguageModel: invalid script\[0\]: expected a reply or a fault by name, got null$/],
    ['toolCalls that are not a list', [{ toolCalls: 'read' }], /^scriptedLanguageModel: invalid script\[0\]:[\s\S]*→ at toolCalls$/],
    ['an unknown finish reason', [{ text: 'a', finishReason: 'done' }], /^scriptedLanguageModel: invalid script\[0\]:[\s\S]*→ at finishReason$/],
    ['usage without output', [{ text: 'a', usage: { input: 3 } }], /^scriptedLanguageModel: invalid script\[0\]:[\s\S]*→ at usage\.output$/],
    ['a script that is not a list', 'hello', /^scriptedLanguageModel: the script is a list of steps, got the string "hello"$/],
  ])('%s', (_, script, message) => {
    expect(() => scriptedLanguageModel(script as never)).toThrow(TypeError);
    expect(() => scriptedLanguageModel(script as never)).toThrow(message);
  });

  it('takes every kind of step it plays', () => {
    const model = scriptedLanguageModel([
      { reasoning: 'hm', text: 'hello', toolCalls: [{ id: 'c1', name: 'read', args: { title: 'x' } }, { name: 'list' }], finishReason: 'tool-calls', usage: { input: 4, output: 2, cacheRead: 1 } },
      {},
      'rate_limited',
      'server_error',
      'overflow',
      'fatal',
      'cut_stream',
    ]);
    expect(model.calls).toEqual([]);
  });
});
