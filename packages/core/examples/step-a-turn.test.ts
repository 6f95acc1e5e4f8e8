import { expect, it } from 'vitest';
import { stepATurn } from './step-a-turn.js';

it('the docs example steps a whole turn and ends it completed', () => {
  const { outcome, effects } = stepATurn();
  expect(outcome).toEqual({ status: 'completed', stopReason: 'stop', turnId: 'turn-1', iterations: 1 });
  expect(effects.filter((e) => !e.startsWith('emit'))).toEqual([
    'persist', 'maybe_compact', 'call_llm', 'persist', 'run_tools', 'persist', 'maybe_compact', 'call_llm', 'persist',
  ]);
});
