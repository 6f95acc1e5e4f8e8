import { describe, expect, it } from 'vitest';
import type { AgentPath } from '../path-step.js';
import { describeRun } from './describe-run.js';

const steps: AgentPath['steps'] = [
  { step: { do: 'prompt' }, state: 'steering' },
  { step: { do: 'boundary' }, state: 'calling' },
  { step: { do: 'reply', reply: 'text', calls: [], retried: [] }, state: 'idle' },
];

describe('describeRun', () => {
  it('reports the path its steps take, also when its name is left over from a longer script (shrunk by hand)', () => {
    const shrunk: AgentPath = { name: 'prompt > boundary > reply:tool_call(read_note) > tools:ok > boundary > reply:text', iterations: 1, steps };
    const report = describeRun(shrunk, []);
    expect(report.split('\n').slice(0, 2)).toEqual(['path: prompt > boundary > reply:text', `name: ${shrunk.name}`]);
  });

  it('says the path once when its name is what its steps say', () => {
    const report = describeRun({ name: 'prompt > boundary > reply:text', iterations: 1, steps }, []);
    expect(report.split('\n').slice(0, 2)).toEqual(['path: prompt > boundary > reply:text', 'every invariant held']);
  });
});
