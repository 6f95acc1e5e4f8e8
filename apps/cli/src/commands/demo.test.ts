import { expect, it } from 'vitest';
import { runDemo } from './demo.js';

it('the demo runs a whole turn: two tool rounds, a steer, a mid-round compaction, a final answer', () => {
  const lines: string[] = [];
  const d = runDemo((line) => lines.push(line));
  expect(d.snapshot.context.lastOutcome).toMatchObject({ status: 'completed', iterations: 2 });
  const out = lines.join('\n');
  expect(out).toContain('▶ run_tools');
  expect(out).toContain('emit      messages.delivered');
  expect(out).toContain('reason=tool_batch midRound=true');
  // After the compaction the model sees its summary instead of the oldest messages.
  expect(d.snapshot.context.view.length).toBeLessThan(d.snapshot.context.entries.length);
});
